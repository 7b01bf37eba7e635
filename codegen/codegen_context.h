// State shared by everything that emits LLVM IR for one query module: the module, the
// builder, the runtime function declarations, and the pipeline function being generated.
#pragma once

#include <llvm/IR/IRBuilder.h>
#include <llvm/IR/LLVMContext.h>
#include <llvm/IR/Module.h>

#include <memory>
#include <string>
#include <vector>

#include "storage/types.h"

namespace floe::codegen {

// A SQL value inside generated code. `null` is an i1 that is true for NULL, or nullptr when
// the value can never be NULL (NOT NULL columns and expressions over them need no checks).
struct SqlValue {
  llvm::Value* value = nullptr;
  llvm::Value* null = nullptr;
};

class CodegenContext {
 public:
  CodegenContext(llvm::LLVMContext& context, llvm::Module& module);

  llvm::LLVMContext& llvm_context() { return context_; }
  llvm::Module& module() { return module_; }
  llvm::IRBuilder<>& builder() { return builder_; }

  // In-register type of a physical type: kBool i1, kInt16 i16, kInt32 i32, kInt64 i64,
  // kInt128 i128, kDouble double, kInterval {i32 months, i32 days, i64 micros},
  // kString {i64 lo, i64 hi}. In memory, booleans are one byte (i8).
  llvm::Type* register_type(PhysicalType type);
  llvm::Type* register_type(const SqlType& type) { return register_type(type.physical()); }

  // Declaration of a function from runtime/runtime_abi.h, by its symbol name.
  llvm::FunctionCallee runtime_function(const std::string& name);

  // The pipeline function being generated and its parameters.
  void begin_function(llvm::Function* function, llvm::Value* state, llvm::Value* worker);
  llvm::Function* function() { return function_; }
  llvm::Value* state() { return state_; }    // void** query state array
  llvm::Value* worker() { return worker_; }  // floe::WorkerContext*

  // if (condition) { floe_rt_fail(worker, message); return false; }
  void fail_if(llvm::Value* condition, const std::string& message);
  // After a runtime call that returns false on failure (the runtime already recorded why).
  void return_if_false(llvm::Value* ok);

  // Keeps `object` alive as long as the compiled query and returns its address as an IR
  // pointer constant (used for LIKE matchers and other per-query constants).
  llvm::Value* embed_object(std::shared_ptr<void> object);
  std::vector<std::shared_ptr<void>> take_embedded_objects();

  // A SqlValue that is the constant NULL of `type`.
  SqlValue null_value(const SqlType& type);

 private:
  llvm::LLVMContext& context_;
  llvm::Module& module_;
  llvm::IRBuilder<> builder_;
  llvm::Function* function_ = nullptr;
  llvm::Value* state_ = nullptr;
  llvm::Value* worker_ = nullptr;
  std::vector<std::shared_ptr<void>> embedded_;
};

}  // namespace floe::codegen
