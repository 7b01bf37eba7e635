#include "codegen/codegen_context.h"

#include <llvm/IR/MDBuilder.h>

#include "codegen/runtime_declarations.h"
#include "storage/error.h"

namespace floe::codegen {

CodegenContext::CodegenContext(llvm::LLVMContext& context, llvm::Module& module)
    : context_(context), module_(module), builder_(context) {}

llvm::Type* CodegenContext::register_type(PhysicalType type) {
  switch (type) {
    case PhysicalType::kBool:
      return builder_.getInt1Ty();
    case PhysicalType::kInt16:
      return builder_.getInt16Ty();
    case PhysicalType::kInt32:
      return builder_.getInt32Ty();
    case PhysicalType::kInt64:
      return builder_.getInt64Ty();
    case PhysicalType::kInt128:
      return builder_.getInt128Ty();
    case PhysicalType::kDouble:
      return builder_.getDoubleTy();
    case PhysicalType::kInterval:
      return llvm::StructType::get(
          context_, {builder_.getInt32Ty(), builder_.getInt32Ty(), builder_.getInt64Ty()});
    case PhysicalType::kString:
      return llvm::StructType::get(context_, {builder_.getInt64Ty(), builder_.getInt64Ty()});
  }
  throw Error("internal error: unknown physical type");
}

llvm::FunctionCallee CodegenContext::runtime_function(const std::string& name) {
  return declare_runtime_function(module_, name);
}

void CodegenContext::begin_function(llvm::Function* function, llvm::Value* state,
                                    llvm::Value* worker) {
  function_ = function;
  state_ = state;
  worker_ = worker;
}

void CodegenContext::fail_if(llvm::Value* condition, const std::string& message) {
  auto* failed = llvm::BasicBlock::Create(context_, "fail", function_);
  auto* ok = llvm::BasicBlock::Create(context_, "ok", function_);
  llvm::MDBuilder weights(context_);
  builder_.CreateCondBr(condition, failed, ok, weights.createBranchWeights(1, 1000));
  builder_.SetInsertPoint(failed);
  builder_.CreateCall(runtime_function("floe_rt_fail"),
                      {worker_, builder_.CreateGlobalStringPtr(message, "error_message")});
  builder_.CreateRet(builder_.getFalse());
  builder_.SetInsertPoint(ok);
}

void CodegenContext::return_if_false(llvm::Value* ok) {
  auto* failed = llvm::BasicBlock::Create(context_, "failed", function_);
  auto* next = llvm::BasicBlock::Create(context_, "ok", function_);
  llvm::MDBuilder weights(context_);
  builder_.CreateCondBr(ok, next, failed, weights.createBranchWeights(1000, 1));
  builder_.SetInsertPoint(failed);
  builder_.CreateRet(builder_.getFalse());
  builder_.SetInsertPoint(next);
}

llvm::Value* CodegenContext::embed_object(std::shared_ptr<void> object) {
  auto address = reinterpret_cast<uint64_t>(object.get());
  embedded_.push_back(std::move(object));
  return llvm::ConstantExpr::getIntToPtr(builder_.getInt64(address), builder_.getPtrTy());
}

std::vector<std::shared_ptr<void>> CodegenContext::take_embedded_objects() {
  auto objects = std::move(embedded_);
  embedded_.clear();
  return objects;
}

SqlValue CodegenContext::null_value(const SqlType& type) {
  return {llvm::Constant::getNullValue(register_type(type)), builder_.getTrue()};
}

}  // namespace floe::codegen
