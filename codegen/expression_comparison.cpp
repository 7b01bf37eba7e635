#include "codegen/expression_comparison.h"

#include "codegen/expression_ir.h"
#include "codegen/expression_string.h"
#include "storage/date_time.h"
#include "storage/error.h"

namespace floe::codegen {
namespace {

llvm::Value* is_nan(CodegenContext& context, llvm::Value* value) {
  return context.builder().CreateFCmpUNO(value, value);
}

llvm::Value* double_equal(CodegenContext& context, llvm::Value* a, llvm::Value* b) {
  auto& builder = context.builder();
  llvm::Value* both_nan = builder.CreateAnd(is_nan(context, a), is_nan(context, b));
  return builder.CreateOr(builder.CreateFCmpOEQ(a, b), both_nan);
}

// (first > second) - (first < second) as i32.
llvm::Value* three_way(CodegenContext& context, llvm::Value* greater, llvm::Value* less) {
  auto& builder = context.builder();
  return builder.CreateSub(builder.CreateZExt(greater, builder.getInt32Ty()),
                           builder.CreateZExt(less, builder.getInt32Ty()));
}

llvm::Value* double_compare(CodegenContext& context, llvm::Value* a, llvm::Value* b) {
  auto& builder = context.builder();
  llvm::Value* a_nan = is_nan(context, a);
  llvm::Value* b_nan = is_nan(context, b);
  llvm::Value* ordered =
      three_way(context, builder.CreateFCmpOGT(a, b), builder.CreateFCmpOLT(a, b));
  llvm::Value* with_nan = three_way(context, a_nan, b_nan);
  return builder.CreateSelect(builder.CreateOr(a_nan, b_nan), with_nan, ordered);
}

llvm::CmpInst::Predicate integer_predicate(plan::CompareOp op, bool is_signed) {
  switch (op) {
    case plan::CompareOp::kEqual:
      return llvm::CmpInst::ICMP_EQ;
    case plan::CompareOp::kNotEqual:
      return llvm::CmpInst::ICMP_NE;
    case plan::CompareOp::kLess:
      return is_signed ? llvm::CmpInst::ICMP_SLT : llvm::CmpInst::ICMP_ULT;
    case plan::CompareOp::kLessEqual:
      return is_signed ? llvm::CmpInst::ICMP_SLE : llvm::CmpInst::ICMP_ULE;
    case plan::CompareOp::kGreater:
      return is_signed ? llvm::CmpInst::ICMP_SGT : llvm::CmpInst::ICMP_UGT;
    case plan::CompareOp::kGreaterEqual:
      return is_signed ? llvm::CmpInst::ICMP_SGE : llvm::CmpInst::ICMP_UGE;
  }
  throw Error("internal error: unknown comparison");
}

// The comparison of two non-null values.
llvm::Value* compare_values(CodegenContext& context, plan::CompareOp op, llvm::Value* a,
                            llvm::Value* b, const SqlType& type) {
  auto& builder = context.builder();
  bool equality = op == plan::CompareOp::kEqual || op == plan::CompareOp::kNotEqual;
  switch (type.physical()) {
    case PhysicalType::kBool:
      return builder.CreateICmp(integer_predicate(op, false), a, b);
    case PhysicalType::kInt16:
    case PhysicalType::kInt32:
    case PhysicalType::kInt64:
    case PhysicalType::kInt128:
      return builder.CreateICmp(integer_predicate(op, true), a, b);
    case PhysicalType::kInterval:
      return builder.CreateICmp(integer_predicate(op, true), interval_span(context, a),
                                interval_span(context, b));
    case PhysicalType::kDouble:
    case PhysicalType::kString:
      if (equality) {
        llvm::Value* equal = values_equal(context, a, b, type);
        return op == plan::CompareOp::kEqual ? equal : builder.CreateNot(equal);
      }
      return builder.CreateICmp(integer_predicate(op, true), values_compare(context, a, b, type),
                                builder.getInt32(0));
  }
  throw Error("internal error: unknown physical type");
}

}  // namespace

llvm::Value* interval_span(CodegenContext& context, llvm::Value* interval) {
  auto& builder = context.builder();
  llvm::Type* i128 = builder.getInt128Ty();
  auto field = [&](unsigned index) {
    return builder.CreateSExt(builder.CreateExtractValue(interval, index), i128);
  };
  llvm::Value* days =
      builder.CreateAdd(builder.CreateMul(field(0), int_constant(i128, 30)), field(1));
  return builder.CreateAdd(builder.CreateMul(days, int_constant(i128, kMicrosPerDay)), field(2));
}

llvm::Value* values_equal(CodegenContext& context, llvm::Value* a, llvm::Value* b,
                          const SqlType& type) {
  switch (type.physical()) {
    case PhysicalType::kDouble:
      return double_equal(context, a, b);
    case PhysicalType::kString:
      return string_equal(context, a, b);
    default:
      return compare_values(context, plan::CompareOp::kEqual, a, b, type);
  }
}

llvm::Value* values_compare(CodegenContext& context, llvm::Value* a, llvm::Value* b,
                            const SqlType& type) {
  switch (type.physical()) {
    case PhysicalType::kDouble:
      return double_compare(context, a, b);
    case PhysicalType::kString:
      return string_compare(context, a, b);
    default:
      return three_way(context, compare_values(context, plan::CompareOp::kGreater, a, b, type),
                       compare_values(context, plan::CompareOp::kLess, a, b, type));
  }
}

SqlValue compile_comparison(CodegenContext& context, plan::CompareOp op, SqlValue a, SqlValue b,
                            const SqlType& type) {
  llvm::Value* null = or_nulls(context, {a.null, b.null});
  if (type.physical() == PhysicalType::kString) {
    // The string paths call the runtime, which must not see the bits of a NULL.
    return compute_unless_null(context, null,
                               [&] { return compare_values(context, op, a.value, b.value, type); });
  }
  return {compare_values(context, op, a.value, b.value, type), null};
}

SqlValue compile_in_list(CodegenContext& context, SqlValue needle,
                         const std::vector<SqlValue>& items, const SqlType& type, bool negated) {
  auto& builder = context.builder();
  llvm::Value* found = builder.getFalse();
  llvm::Value* item_null = nullptr;
  for (const SqlValue& item : items) {
    SqlValue equal = compile_comparison(context, plan::CompareOp::kEqual, needle, item, type);
    found = builder.CreateOr(found, unless_null(context, equal.value, equal.null));
    item_null = or_nulls(context, {item_null, item.null});
  }
  llvm::Value* null = or_nulls(context, {needle.null, item_null});
  if (null) null = builder.CreateAnd(null, builder.CreateNot(found));
  return {negated ? builder.CreateNot(found) : found, null};
}

}  // namespace floe::codegen
