#include "codegen/expression_arithmetic.h"

#include <algorithm>

#include "codegen/expression_cast.h"
#include "codegen/expression_decimal.h"
#include "codegen/expression_ir.h"
#include "codegen/expression_temporal.h"
#include "storage/error.h"
#include "storage/numeric_casts.h"

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
                           integer_out_of_range(expr.type.id)),
          null};
}

// The product of scaled integers has the sum of the scales (the binder's result type), and
// at most the sum of the precisions digits: checked only where that exceeds the result's.
SqlValue decimal_multiply(CodegenContext& context, const plan::Expr& expr, SqlValue a, SqlValue b) {
  // Integer operands count as numeric(digits of the type, 0).
  SqlType left = expr.children[0]->type, right = expr.children[1]->type;
  for (SqlType* operand : {&left, &right}) {
    if (operand->is_integer())
      *operand = SqlType::decimal(integer_decimal_precision(operand->id), 0);
  }
  if (left.id != TypeId::kDecimal || right.id != TypeId::kDecimal ||
      left.scale + right.scale != expr.type.scale) {
    unsupported(expr);
  }
  auto& builder = context.builder();
  llvm::Value* null = or_nulls(context, {a.null, b.null});
  llvm::Type* type = context.register_type(expr.type);
  llvm::Value* x = builder.CreateSExt(a.value, type);
  llvm::Value* y = builder.CreateSExt(b.value, type);
  if (left.precision + right.precision <= expr.type.precision)
    return {builder.CreateMul(x, y), null};
  return {checked_decimal_op(context, llvm::Intrinsic::smul_with_overflow, x, y,
                             expr.type.precision, null),
          null};
}

// Most digits left of the point a decimal or integer operand's value can have: those of a
// constant's value, or of the source type of a cast (the binder casts operands to the result
// type), else those of its type.
int integer_digits(const plan::Expr& operand) {
  auto of_type = [](const SqlType& type) {
    if (type.is_integer()) return static_cast<int>(integer_decimal_precision(type.id));
    return type.precision - type.scale;
  };
  int digits = of_type(operand.type);
  if (operand.kind == plan::ExprKind::kConstant && !operand.constant.is_null()) {
    int128_t magnitude = operand.constant.as_int128();
    if (magnitude < 0) magnitude = -magnitude;
    int value_digits = 0;
    while (value_digits < 39 && magnitude >= power_of_ten(static_cast<unsigned>(value_digits)))
      ++value_digits;
    int scale = operand.type.id == TypeId::kDecimal ? operand.type.scale : 0;
    return std::min(digits, std::max(value_digits - scale, 0));
  }
  if (operand.kind == plan::ExprKind::kCast) {
    const SqlType& source = operand.children[0]->type;
    if (source.is_integer() || source.id == TypeId::kDecimal)
      return std::min(digits, of_type(source));
  }
  return digits;
}

SqlValue decimal_arithmetic(CodegenContext& context, const plan::Expr& expr, SqlValue a,
                            SqlValue b) {
  if (expr.arithmetic_op == ArithmeticOp::kMultiply) return decimal_multiply(context, expr, a, b);
  a = cast_value(context, a, expr.children[0]->type, expr.type);
  b = cast_value(context, b, expr.children[1]->type, expr.type);
  llvm::Value* null = or_nulls(context, {a.null, b.null});
  auto& builder = context.builder();
  unsigned precision = expr.type.precision;
  // a ± b has at most one digit more than the longer operand: checked only when that can
  // exceed the result's precision (it was capped at 38, or an operand is a wider column).
  bool may_overflow =
      std::max(integer_digits(*expr.children[0]), integer_digits(*expr.children[1])) + 1 +
          expr.type.scale >
      static_cast<int>(precision);
  switch (expr.arithmetic_op) {
    case ArithmeticOp::kAdd:
      if (!may_overflow) return {builder.CreateAdd(a.value, b.value), null};
      return {checked_decimal_op(context, llvm::Intrinsic::sadd_with_overflow, a.value, b.value,
                                 precision, null),
              null};
    case ArithmeticOp::kSubtract:
      if (!may_overflow) return {builder.CreateSub(a.value, b.value), null};
      return {checked_decimal_op(context, llvm::Intrinsic::ssub_with_overflow, a.value, b.value,
                                 precision, null),
              null};
    case ArithmeticOp::kModulo:  // |a % b| < |b|: always fits
      return {integer_divide(context, true, a.value, b.value, null, kNumericOverflow), null};
    case ArithmeticOp::kMultiply:
    case ArithmeticOp::kDivide:  // planned as double division
      break;
  }
  unsupported(expr);
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
      expr.type.is_integer() ? integer_out_of_range(expr.type.id) : kNumericOverflow;
  llvm::Value* zero = int_constant(operand.value->getType(), 0);
  return {checked_integer_op(context, llvm::Intrinsic::ssub_with_overflow, zero, operand.value,
                             operand.null, overflow),
          operand.null};
}

}  // namespace floe::codegen
