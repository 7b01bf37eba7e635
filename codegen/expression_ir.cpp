#include "codegen/expression_ir.h"

namespace floe::codegen {

llvm::Value* or_nulls(CodegenContext& context, std::initializer_list<llvm::Value*> nulls) {
  llvm::Value* result = nullptr;
  for (llvm::Value* null : nulls) {
    if (!null) continue;
    result = result ? context.builder().CreateOr(result, null) : null;
  }
  return result;
}

llvm::Value* unless_null(CodegenContext& context, llvm::Value* condition, llvm::Value* null) {
  if (!null) return condition;
  auto& builder = context.builder();
  return builder.CreateAnd(condition, builder.CreateNot(null));
}

SqlValue compute_unless_null(CodegenContext& context, llvm::Value* null,
                             const std::function<llvm::Value*()>& body) {
  if (!null) return {body(), nullptr};
  auto& builder = context.builder();
  llvm::BasicBlock* start = builder.GetInsertBlock();
  llvm::BasicBlock* compute = new_block(context, "not_null");
  llvm::BasicBlock* merge = new_block(context, "null_merge");
  builder.CreateCondBr(null, merge, compute);
  builder.SetInsertPoint(compute);
  llvm::Value* value = body();
  llvm::BasicBlock* computed = builder.GetInsertBlock();
  builder.CreateBr(merge);
  builder.SetInsertPoint(merge);
  llvm::PHINode* phi = builder.CreatePHI(value->getType(), 2);
  phi->addIncoming(llvm::Constant::getNullValue(value->getType()), start);
  phi->addIncoming(value, computed);
  return {phi, null};
}

SqlValue merge_values(CodegenContext& context, llvm::BasicBlock* merge_block, llvm::Type* type,
                      const std::vector<IncomingValue>& incoming) {
  auto& builder = context.builder();
  builder.SetInsertPoint(merge_block);
  auto count = static_cast<unsigned>(incoming.size());
  llvm::PHINode* value = builder.CreatePHI(type, count);
  bool nullable = false;
  for (const IncomingValue& in : incoming) {
    value->addIncoming(in.value.value, in.block);
    nullable = nullable || in.value.null;
  }
  if (!nullable) return {value, nullptr};
  llvm::PHINode* null = builder.CreatePHI(builder.getInt1Ty(), count);
  for (const IncomingValue& in : incoming) {
    null->addIncoming(in.value.null ? in.value.null : builder.getFalse(), in.block);
  }
  return {value, null};
}

llvm::BasicBlock* new_block(CodegenContext& context, const char* name) {
  llvm::Function* function = context.builder().GetInsertBlock()->getParent();
  return llvm::BasicBlock::Create(context.llvm_context(), name, function);
}

llvm::Value* entry_alloca(CodegenContext& context, llvm::Type* type) {
  llvm::Function* function = context.builder().GetInsertBlock()->getParent();
  llvm::BasicBlock& entry = function->getEntryBlock();
  llvm::IRBuilder<> entry_builder(&entry, entry.getFirstInsertionPt());
  llvm::AllocaInst* slot = entry_builder.CreateAlloca(type);
  // LLVM 16 aligns i128 to 8 bytes, but the runtime writes it as a 16-byte aligned __int128.
  slot->setAlignment(llvm::Align(16));
  return slot;
}

llvm::Constant* int_constant(llvm::Type* type, int128_t value) {
  auto bits = static_cast<unsigned __int128>(value);
  uint64_t words[2] = {static_cast<uint64_t>(bits), static_cast<uint64_t>(bits >> 64)};
  llvm::APInt wide(128, words);
  return llvm::ConstantInt::get(type, wide.trunc(type->getIntegerBitWidth()));
}

llvm::Value* checked_integer_op(CodegenContext& context, llvm::Intrinsic::ID op, llvm::Value* a,
                                llvm::Value* b, llvm::Value* null, const std::string& message) {
  auto& builder = context.builder();
  llvm::Value* pair = builder.CreateBinaryIntrinsic(op, a, b);
  context.fail_if(unless_null(context, builder.CreateExtractValue(pair, 1), null), message);
  return builder.CreateExtractValue(pair, 0);
}

void check_range(CodegenContext& context, llvm::Value* value, int128_t min, int128_t max,
                 llvm::Value* null, const std::string& message) {
  auto& builder = context.builder();
  llvm::Type* type = value->getType();
  llvm::Value* outside = builder.CreateOr(builder.CreateICmpSLT(value, int_constant(type, min)),
                                          builder.CreateICmpSGT(value, int_constant(type, max)));
  context.fail_if(unless_null(context, outside, null), message);
}

llvm::Value* call_runtime(CodegenContext& context, const std::string& name,
                          const std::vector<llvm::Value*>& arguments) {
  auto& builder = context.builder();
  llvm::FunctionCallee callee = context.runtime_function(name);
  llvm::FunctionType* type = callee.getFunctionType();
  std::vector<llvm::Value*> adapted;
  for (size_t i = 0; i < arguments.size(); ++i) {
    llvm::Value* argument = arguments[i];
    llvm::Type* parameter = type->getParamType(static_cast<unsigned>(i));
    if (argument->getType() != parameter && argument->getType()->isIntegerTy() &&
        parameter->isIntegerTy()) {
      bool is_signed = argument->getType()->getIntegerBitWidth() > 1;
      argument = builder.CreateIntCast(argument, parameter, is_signed);
    }
    adapted.push_back(argument);
  }
  return builder.CreateCall(callee, adapted);
}

}  // namespace floe::codegen
