#include "codegen/expression_string.h"

#include "codegen/expression_ir.h"
#include "runtime/like_matcher.h"
#include "storage/error.h"
#include "storage/string_ref.h"

namespace floe::codegen {

llvm::Value* string_lo(CodegenContext& context, llvm::Value* string) {
  return context.builder().CreateExtractValue(string, 0);
}

llvm::Value* string_hi(CodegenContext& context, llvm::Value* string) {
  return context.builder().CreateExtractValue(string, 1);
}

llvm::Value* string_constant(CodegenContext& context, const std::string& bytes) {
  auto owned = std::make_shared<std::string>(bytes);
  StringRef ref = StringRef::from(*owned);
  if (!ref.is_inline()) context.embed_object(owned);
  uint64_t halves[2];
  std::memcpy(halves, &ref, sizeof(halves));
  auto& builder = context.builder();
  auto* type = llvm::cast<llvm::StructType>(context.register_type(PhysicalType::kString));
  return llvm::ConstantStruct::get(type,
                                   {builder.getInt64(halves[0]), builder.getInt64(halves[1])});
}

llvm::Value* string_equal(CodegenContext& context, llvm::Value* a, llvm::Value* b) {
  auto& builder = context.builder();
  llvm::Value* a_lo = string_lo(context, a);
  llvm::Value* b_lo = string_lo(context, b);
  llvm::Value* heads_equal = builder.CreateICmpEQ(a_lo, b_lo);
  // The low 32 bits of `lo` are the length; up to 4 bytes live entirely in the prefix.
  llvm::Value* length = builder.CreateTrunc(a_lo, builder.getInt32Ty());
  llvm::Value* needs_bytes =
      builder.CreateAnd(heads_equal, builder.CreateICmpUGT(length, builder.getInt32(4)));
  llvm::BasicBlock* start = builder.GetInsertBlock();
  llvm::BasicBlock* compare_bytes = new_block(context, "string_bytes");
  llvm::BasicBlock* merge = new_block(context, "string_equal");
  builder.CreateCondBr(needs_bytes, compare_bytes, merge);
  builder.SetInsertPoint(compare_bytes);
  llvm::Value* bytes_equal = call_runtime(
      context, "floe_rt_string_equal", {a_lo, string_hi(context, a), b_lo, string_hi(context, b)});
  llvm::BasicBlock* compared = builder.GetInsertBlock();
  builder.CreateBr(merge);
  builder.SetInsertPoint(merge);
  llvm::PHINode* result = builder.CreatePHI(builder.getInt1Ty(), 2);
  result->addIncoming(heads_equal, start);
  result->addIncoming(bytes_equal, compared);
  return result;
}

llvm::Value* string_compare(CodegenContext& context, llvm::Value* a, llvm::Value* b) {
  return call_runtime(
      context, "floe_rt_string_compare",
      {string_lo(context, a), string_hi(context, a), string_lo(context, b), string_hi(context, b)});
}

SqlValue compile_like(CodegenContext& context, SqlValue text, const plan::Expr& pattern,
                      bool negated) {
  if (pattern.kind != plan::ExprKind::kConstant) {
    throw NotSupported("LIKE with a non-constant pattern", pattern.position);
  }
  if (pattern.constant.is_null()) return context.null_value(SqlType::boolean());
  auto matcher = std::make_shared<LikeMatcher>(pattern.constant.as_string());
  llvm::Value* address = context.embed_object(matcher);
  return compute_unless_null(context, text.null, [&] {
    llvm::Value* matches =
        call_runtime(context, "floe_rt_like",
                     {address, string_lo(context, text.value), string_hi(context, text.value)});
    return negated ? context.builder().CreateNot(matches) : matches;
  });
}

}  // namespace floe::codegen
