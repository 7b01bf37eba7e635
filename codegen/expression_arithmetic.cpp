#include "codegen/expression_arithmetic.h"

#include "codegen/expression_cast.h"
#include "codegen/expression_decimal.h"
#include "codegen/expression_ir.h"
#include "codegen/expression_temporal.h"
#include "storage/error.h"

namespace floe::codegen {
namespace {

constexpr const char* kDivisionByZero = "division by zero";

using plan::ArithmeticOp;

[[noreturn]] void unsupported(const plan::Expr& expr) {
  throw NotSupported("arithmetic " + expr.to_string() + " on " + expr.type.to_string(),
                     expr.position);
}

// Division and modulo of integers or scaled decimals (same scale), truncating toward zero.
// The divisor is replaced where the instruction would be undefined (zero, MIN / -1), which
// only matters for rows that fail or are NULL.
llvm::Value* integer_divide(CodegenContext& context, bool modulo, llvm::Value* a, llvm::Value* b,
                            llvm::Value* null, const std::string& overflow_message) {
  auto& builder = context.builder();
  llvm::Type* type = a->getType();
  llvm::Value* zero = builder.CreateICmpEQ(b, int_constant(type, 0));
  context.fail_if(unless_null(context, zero, null), kDivisionByZero);
  llvm::Value* minus_one = builder.CreateICmpEQ(b, llvm::Constant::getAllOnesValue(type));
  llvm::Value* min =
      llvm::ConstantInt::get(type, llvm::APInt::getSignedMinValue(type->getIntegerBitWidth()));
  llvm::Value* unsafe;
  if (modulo) {
    unsafe = builder.CreateOr(zero, minus_one);  // x % -1 = x % 1 = 0
  } else {
    llvm::Value* overflow = builder.CreateAnd(minus_one, builder.CreateICmpEQ(a, min));
    context.fail_if(unless_null(context, overflow, null), overflow_message);
    unsafe = builder.CreateOr(zero, overflow);
  }
  llvm::Value* divisor = builder.CreateSelect(unsafe, int_constant(type, 1), b);
  return modulo ? builder.CreateSRem(a, divisor) : builder.CreateSDiv(a, divisor);
}

// add/sub/mul/div/mod of two integers or two decimals of the same scale.
llvm::Value* exact_arithmetic(CodegenContext& context, ArithmeticOp op, llvm::Value* a,
                              llvm::Value* b, llvm::Value* null, const std::string& overflow) {
  switch (op) {
    case ArithmeticOp::kAdd:
      return checked_integer_op(context, llvm::Intrinsic::sadd_with_overflow, a, b, null, overflow);
    case ArithmeticOp::kSubtract:
      return checked_integer_op(context, llvm::Intrinsic::ssub_with_overflow, a, b, null, overflow);
    case ArithmeticOp::kMultiply:
      return checked_integer_op(context, llvm::Intrinsic::smul_with_overflow, a, b, null, overflow);
    case ArithmeticOp::kDivide:
      return integer_divide(context, false, a, b, null, overflow);
    case ArithmeticOp::kModulo:
      return integer_divide(context, true, a, b, null, overflow);
  }
  throw Error("internal error: unknown arithmetic operator");
}

SqlValue integer_arithmetic(CodegenContext& context, const plan::Expr& expr, SqlValue a,
                            SqlValue b) {
  a = cast_value(context, a, expr.children[0]->type, expr.type);
  b = cast_value(context, b, expr.children[1]->type, expr.type);
  llvm::Value* null = or_nulls(context, {a.null, b.null});
  return {exact_arithmetic(context, expr.arithmetic_op, a.value, b.value, null,
                           integer_overflow_message(expr.type)),
          null};
}

// The product of scaled integers has the sum of the scales (the binder's result type).
SqlValue decimal_multiply(CodegenContext& context, const plan::Expr& expr, SqlValue a, SqlValue b) {
  const SqlType& left = expr.children[0]->type;
  const SqlType& right = expr.children[1]->type;
  if (!left.is_numeric() || left.id == TypeId::kDouble || !right.is_numeric() ||
      right.id == TypeId::kDouble) {
    unsupported(expr);
  }
  auto& builder = context.builder();
  llvm::Value* null = or_nulls(context, {a.null, b.null});
  llvm::Type* type = context.register_type(expr.type);
  llvm::Value* product = checked_integer_op(
      context, llvm::Intrinsic::smul_with_overflow, builder.CreateSExt(a.value, type),
      builder.CreateSExt(b.value, type), null, kNumericOverflow);
  unsigned scale = left.scale + right.scale;  // integer operands have scale 0
  if (scale == expr.type.scale) return {product, null};
  return {rescale_decimal(context, product, null, kMaxDecimalPrecision, scale, expr.type), null};
}

SqlValue decimal_arithmetic(CodegenContext& context, const plan::Expr& expr, SqlValue a,
                            SqlValue b) {
  if (expr.arithmetic_op == ArithmeticOp::kMultiply) return decimal_multiply(context, expr, a, b);
  if (expr.arithmetic_op == ArithmeticOp::kDivide) unsupported(expr);  // planned as double
  a = cast_value(context, a, expr.children[0]->type, expr.type);
  b = cast_value(context, b, expr.children[1]->type, expr.type);
  llvm::Value* null = or_nulls(context, {a.null, b.null});
  return {exact_arithmetic(context, expr.arithmetic_op, a.value, b.value, null, kNumericOverflow),
          null};
}

SqlValue double_arithmetic(CodegenContext& context, const plan::Expr& expr, SqlValue a,
                           SqlValue b) {
  a = cast_value(context, a, expr.children[0]->type, expr.type);
  b = cast_value(context, b, expr.children[1]->type, expr.type);
  llvm::Value* null = or_nulls(context, {a.null, b.null});
  auto& builder = context.builder();
  switch (expr.arithmetic_op) {
    case ArithmeticOp::kAdd:
      return {builder.CreateFAdd(a.value, b.value), null};
    case ArithmeticOp::kSubtract:
      return {builder.CreateFSub(a.value, b.value), null};
    case ArithmeticOp::kMultiply:
      return {builder.CreateFMul(a.value, b.value), null};
    case ArithmeticOp::kDivide: {
      llvm::Value* zero =
          builder.CreateFCmpOEQ(b.value, llvm::ConstantFP::get(b.value->getType(), 0.0));
      context.fail_if(unless_null(context, zero, null), kDivisionByZero);
      return {builder.CreateFDiv(a.value, b.value), null};
    }
    case ArithmeticOp::kModulo:
      break;
  }
  unsupported(expr);
}

}  // namespace

SqlValue compile_arithmetic(CodegenContext& context, const plan::Expr& expr, SqlValue a,
                            SqlValue b) {
  if (is_temporal_arithmetic(expr)) return compile_temporal_arithmetic(context, expr, a, b);
  if (expr.type.is_integer()) return integer_arithmetic(context, expr, a, b);
  if (expr.type.id == TypeId::kDecimal) return decimal_arithmetic(context, expr, a, b);
  if (expr.type.id == TypeId::kDouble) return double_arithmetic(context, expr, a, b);
  unsupported(expr);
}

SqlValue compile_negate(CodegenContext& context, const plan::Expr& expr, SqlValue operand) {
  operand = cast_value(context, operand, expr.children[0]->type, expr.type);
  auto& builder = context.builder();
  if (expr.type.id == TypeId::kInterval) return negate_interval(context, operand);
  if (expr.type.id == TypeId::kDouble) return {builder.CreateFNeg(operand.value), operand.null};
  if (!expr.type.is_integer() && expr.type.id != TypeId::kDecimal) unsupported(expr);
  std::string overflow =
      expr.type.is_integer() ? integer_overflow_message(expr.type) : kNumericOverflow;
  llvm::Value* zero = int_constant(operand.value->getType(), 0);
  return {checked_integer_op(context, llvm::Intrinsic::ssub_with_overflow, zero, operand.value,
                             operand.null, overflow),
          operand.null};
}

}  // namespace floe::codegen
