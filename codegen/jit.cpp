#include "codegen/jit.h"

#include <llvm/ExecutionEngine/Orc/ExecutionUtils.h>
#include <llvm/ExecutionEngine/Orc/JITTargetMachineBuilder.h>
#include <llvm/ExecutionEngine/Orc/LLJIT.h>
#include <llvm/ExecutionEngine/Orc/ThreadSafeModule.h>
#include <llvm/Passes/PassBuilder.h>
#include <llvm/Transforms/InstCombine/InstCombine.h>
#include <llvm/Transforms/Scalar/EarlyCSE.h>
#include <llvm/Transforms/Scalar/GVN.h>
#include <llvm/Transforms/Scalar/LICM.h>
#include <llvm/Transforms/Scalar/SROA.h>
#include <llvm/Transforms/Scalar/SimplifyCFG.h>
#include <llvm/Support/TargetSelect.h>
#include <llvm/Target/TargetMachine.h>

#include <atomic>
#include <mutex>

#include "codegen/module_extract.h"
#include "runtime/function_registry.h"
#include "runtime/runtime_symbols.h"
#include "storage/error.h"

// Compiler-runtime helpers for 128-bit arithmetic that LLVM lowers to library calls (decimal
// division, int128 <-> double). They live in libgcc, which the JIT cannot search, so they are
// bound explicitly like the runtime functions.
extern "C" {
__int128 __divti3(__int128, __int128);
__int128 __modti3(__int128, __int128);
unsigned __int128 __udivti3(unsigned __int128, unsigned __int128);
unsigned __int128 __umodti3(unsigned __int128, unsigned __int128);
double __floattidf(__int128);
double __floatuntidf(unsigned __int128);
__int128 __fixdfti(double);
unsigned __int128 __fixunsdfti(double);
}

namespace floe::codegen {
namespace {

[[noreturn]] void throw_llvm_error(llvm::Error error, const std::string& what) {
  throw Error("JIT " + what + " failed: " + llvm::toString(std::move(error)));
}

template <typename T>
T unwrap(llvm::Expected<T> value, const std::string& what) {
  if (!value) throw_llvm_error(value.takeError(), what);
  return std::move(*value);
}

std::vector<std::pair<const char*, void*>> compiler_runtime_symbols() {
  return {
      {"__divti3", reinterpret_cast<void*>(&__divti3)},
      {"__modti3", reinterpret_cast<void*>(&__modti3)},
      {"__udivti3", reinterpret_cast<void*>(&__udivti3)},
      {"__umodti3", reinterpret_cast<void*>(&__umodti3)},
      {"__floattidf", reinterpret_cast<void*>(&__floattidf)},
      {"__floatuntidf", reinterpret_cast<void*>(&__floatuntidf)},
      {"__fixdfti", reinterpret_cast<void*>(&__fixdfti)},
      {"__fixunsdfti", reinterpret_cast<void*>(&__fixunsdfti)},
  };
}

// One LLJIT per optimization level, created on first use. Every query gets its own JITDylib
// that links against a shared dylib holding the runtime symbols.
class JitEngine {
 public:
  static JitEngine& get(JitOptimization level) {
    static JitEngine fast(JitOptimization::kFast);
    static JitEngine optimized(JitOptimization::kOptimized);
    return level == JitOptimization::kFast ? fast : optimized;
  }

  llvm::orc::LLJIT& jit() { return *jit_; }
  // Held while a module is added and compiled: LLJIT compiles with one TargetMachine
  // (SimpleCompiler), which is not thread-safe, and queries of several connections
  // (engine/api/statement_lock.h) and adaptive execution's compile thread compile at once.
  std::mutex& compile_mutex() { return compile_mutex_; }
  const llvm::DataLayout& data_layout() const { return jit_->getDataLayout(); }
  const llvm::Triple& triple() const { return jit_->getTargetTriple(); }

  llvm::orc::JITDylib& create_query_dylib() {
    auto& session = jit_->getExecutionSession();
    std::string name = "floe_query_" + std::to_string(next_query_++);
    auto dylib = session.createJITDylib(name);
    if (!dylib) throw_llvm_error(dylib.takeError(), "dylib creation");
    dylib->addToLinkOrder(*runtime_);
    return *dylib;
  }

  void optimize(llvm::Module& module) {
    std::lock_guard lock(pass_mutex_);  // the TargetMachine is not thread-safe
    llvm::LoopAnalysisManager loops;
    llvm::FunctionAnalysisManager functions;
    llvm::CGSCCAnalysisManager cgscc;
    llvm::ModuleAnalysisManager modules;
    llvm::PassBuilder builder(pass_target_.get());
    builder.registerModuleAnalyses(modules);
    builder.registerCGSCCAnalyses(cgscc);
    builder.registerFunctionAnalyses(functions);
    builder.registerLoopAnalyses(loops);
    builder.crossRegisterProxies(loops, functions, cgscc, modules);
    // A short function pipeline in the manner of HyPer (Neumann, VLDB 2011, section 4.2): the
    // generated code is already straight-line per tuple, so scalar replacement, local
    // simplification, redundancy elimination and hoisting out of the morsel loop give most
    // of O2's speed at a fraction of its compile time.
    llvm::FunctionPassManager passes;
    passes.addPass(llvm::SROAPass(llvm::SROAOptions::ModifyCFG));
    passes.addPass(llvm::EarlyCSEPass(true));
    passes.addPass(llvm::InstCombinePass());
    passes.addPass(llvm::SimplifyCFGPass());
    passes.addPass(llvm::createFunctionToLoopPassAdaptor(llvm::LICMPass(llvm::LICMOptions()),
                                                         /*UseMemorySSA=*/true));
    passes.addPass(llvm::GVNPass());
    passes.addPass(llvm::InstCombinePass());
    passes.addPass(llvm::SimplifyCFGPass());
    llvm::ModulePassManager pipeline;
    pipeline.addPass(llvm::createModuleToFunctionPassAdaptor(std::move(passes)));
    pipeline.run(module, modules);
  }

 private:
  explicit JitEngine(JitOptimization level) {
    static std::once_flag native_target;
    std::call_once(native_target, [] {
      llvm::InitializeNativeTarget();
      llvm::InitializeNativeTargetAsmPrinter();
    });
    auto target = unwrap(llvm::orc::JITTargetMachineBuilder::detectHost(), "host detection");
    target.setCodeGenOptLevel(level == JitOptimization::kFast ? llvm::CodeGenOpt::None
                                                              : llvm::CodeGenOpt::Less);
    pass_target_ = unwrap(target.createTargetMachine(), "target machine creation");
    jit_ = unwrap(llvm::orc::LLJITBuilder().setJITTargetMachineBuilder(std::move(target)).create(),
                  "creation");

    auto& session = jit_->getExecutionSession();
    runtime_ = &session.createBareJITDylib("floe_runtime");
    llvm::orc::SymbolMap symbols;
    auto bind = [&](const char* name, void* address) {
      symbols[jit_->mangleAndIntern(name)] =
          llvm::JITEvaluatedSymbol(llvm::pointerToJITTargetAddress(address),
                                   llvm::JITSymbolFlags::Exported | llvm::JITSymbolFlags::Callable);
    };
    for (auto& [name, address] : runtime_symbols()) bind(name, address);
    for (auto& [name, address] : compiler_runtime_symbols()) bind(name, address);
    for (const FunctionOverload* function : function_registry().all())
      bind(function->symbol.c_str(), reinterpret_cast<void*>(function->thunk));
    if (auto error = runtime_->define(llvm::orc::absoluteSymbols(std::move(symbols)))) {
      throw_llvm_error(std::move(error), "runtime binding");
    }
    // libc functions the optimizer may introduce (memcpy, memset, ...).
    runtime_->addGenerator(unwrap(llvm::orc::DynamicLibrarySearchGenerator::GetForCurrentProcess(
                                      jit_->getDataLayout().getGlobalPrefix()),
                                  "process symbol search"));
  }

  std::unique_ptr<llvm::orc::LLJIT> jit_;
  std::unique_ptr<llvm::TargetMachine> pass_target_;
  llvm::orc::JITDylib* runtime_ = nullptr;
  std::atomic<uint64_t> next_query_{0};
  std::mutex pass_mutex_;
  std::mutex compile_mutex_;
};

llvm::orc::JITDylib& as_dylib(void* dylib) {
  return *static_cast<llvm::orc::JITDylib*>(dylib);
}

}  // namespace

CompiledModule::~CompiledModule() {
  auto& session = JitEngine::get(level_).jit().getExecutionSession();
  llvm::consumeError(session.removeJITDylib(as_dylib(dylib_)));
}

void* CompiledModule::lookup(const std::string& name) const {
  auto address =
      unwrap(JitEngine::get(level_).jit().lookup(as_dylib(dylib_), name), "lookup of " + name);
  return address.toPtr<void*>();
}

void initialize_jit() {
  JitEngine::get(JitOptimization::kFast);  // (creates both engines)
}

void prepare_module(llvm::Module& module) {
  // Both engines target the host, so either one's layout is right.
  auto& engine = JitEngine::get(JitOptimization::kFast);
  module.setDataLayout(engine.data_layout());
  module.setTargetTriple(engine.triple().str());
}

void optimize_module(llvm::Module& module, JitOptimization level) {
  if (level == JitOptimization::kOptimized) JitEngine::get(level).optimize(module);
}

namespace {

// Compiles the module in a new JITDylib, forcing the machine code of `symbols`.
std::unique_ptr<CompiledModule> compile_in_dylib(llvm::orc::ThreadSafeModule module,
                                                 JitOptimization level,
                                                 const std::vector<std::string>& symbols) {
  auto& engine = JitEngine::get(level);
  std::lock_guard lock(engine.compile_mutex());
  auto& dylib = engine.create_query_dylib();
  auto compiled = std::make_unique<CompiledModule>(level, &dylib);
  if (auto error = engine.jit().addIRModule(dylib, std::move(module))) {
    throw_llvm_error(std::move(error), "module addition");
  }
  for (const auto& name : symbols) compiled->lookup(name);
  return compiled;
}

}  // namespace

std::unique_ptr<CompiledModule> compile_module(std::unique_ptr<llvm::LLVMContext> context,
                                               std::unique_ptr<llvm::Module> module,
                                               JitOptimization level,
                                               const std::vector<std::string>& symbols) {
  return compile_in_dylib(llvm::orc::ThreadSafeModule(std::move(module), std::move(context)), level,
                          symbols);
}

struct ModulePartCompiler::Source {
  Source(std::unique_ptr<llvm::LLVMContext> owned_context, std::unique_ptr<llvm::Module> source)
      : context(std::move(owned_context)), module(std::move(source)) {}
  ~Source() {
    auto lock = context.getLock();
    module.reset();  // before the context, which the parts being compiled may still share
  }

  llvm::orc::ThreadSafeContext context;
  std::unique_ptr<llvm::Module> module;
};

ModulePartCompiler::ModulePartCompiler(std::unique_ptr<llvm::LLVMContext> context,
                                       std::unique_ptr<llvm::Module> module)
    : source_(std::make_unique<Source>(std::move(context), std::move(module))) {}

ModulePartCompiler::~ModulePartCompiler() = default;

std::unique_ptr<CompiledModule> ModulePartCompiler::compile(const std::vector<std::string>& symbols,
                                                            JitOptimization level) {
  std::unique_ptr<llvm::Module> part;
  {
    auto lock = source_->context.getLock();
    part = extract_definitions(*source_->module, symbols);
    optimize_module(*part, level);
  }
  return compile_in_dylib(llvm::orc::ThreadSafeModule(std::move(part), source_->context), level,
                          symbols);
}

}  // namespace floe::codegen
