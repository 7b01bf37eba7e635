// ORC LLJIT wrapper (DESIGN.md "Compiled execution"): compiles one query module, or one
// pipeline's part of it after another (ModulePartCompiler), at one of two optimization levels
// and frees its machine code when the CompiledModule dies.
#pragma once

#include <llvm/IR/LLVMContext.h>
#include <llvm/IR/Module.h>

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

namespace floe::codegen {

enum class JitOptimization : uint8_t {
  kFast,       // no IR passes, CodeGenOpt::None (FastISel)
  kOptimized,  // the O2 pass pipeline, CodeGenOpt::Default
};

// A query's machine code, in its own JITDylib (removed, with all its memory, on destruction).
class CompiledModule {
 public:
  CompiledModule(JitOptimization level, void* dylib) : level_(level), dylib_(dylib) {}
  ~CompiledModule();
  CompiledModule(const CompiledModule&) = delete;
  CompiledModule& operator=(const CompiledModule&) = delete;

  // Address of a function defined by the module; throws floe::Error when absent.
  void* lookup(const std::string& name) const;

 private:
  JitOptimization level_;
  void* dylib_;  // llvm::orc::JITDylib*, kept opaque so users need no ORC headers
};

// Creates the JIT engines now rather than on first use: an object that compiles on another
// thread and is destroyed at exit (adaptive execution's compile thread) must be created after
// them, so that it is destroyed before them.
void initialize_jit();

// Sets the host's target triple and data layout on a module about to be generated.
void prepare_module(llvm::Module& module);

// Runs the IR passes of `level` on the module (none for kFast).
void optimize_module(llvm::Module& module, JitOptimization level);

// Hands the module to the JIT and forces machine-code generation by looking up every name
// in `symbols`.
std::unique_ptr<CompiledModule> compile_module(std::unique_ptr<llvm::LLVMContext> context,
                                               std::unique_ptr<llvm::Module> module,
                                               JitOptimization level,
                                               const std::vector<std::string>& symbols);

// Compiles a query's module part by part, each part the definitions some functions reach
// (module_extract.h), in its own JITDylib: adaptive execution compiles one pipeline after
// another and switches each to its code as soon as it is ready (Kohn, Leis & Neumann, ICDE
// 2018, section IV). Used by one thread at a time.
class ModulePartCompiler {
 public:
  ModulePartCompiler(std::unique_ptr<llvm::LLVMContext> context,
                     std::unique_ptr<llvm::Module> module);
  ~ModulePartCompiler();
  ModulePartCompiler(const ModulePartCompiler&) = delete;
  ModulePartCompiler& operator=(const ModulePartCompiler&) = delete;

  // Optimizes and compiles the part defining `symbols` at `level` (as compile_module does).
  std::unique_ptr<CompiledModule> compile(const std::vector<std::string>& symbols,
                                          JitOptimization level);

 private:
  struct Source;  // the module and its context (ORC's ThreadSafeContext)
  std::unique_ptr<Source> source_;
};

}  // namespace floe::codegen
