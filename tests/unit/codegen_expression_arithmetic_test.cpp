#include <gtest/gtest.h>

#include <limits>

#include "storage/error.h"
#include "tests/unit/codegen_expression_harness.h"

namespace floe::codegen::testing {
namespace {

using plan::ArithmeticOp;

plan::ExprPtr integer(int32_t value) {
  return constant(Value::integer(value));
}
plan::ExprPtr big(int64_t value) {
  return constant(Value::big_int(value));
}
plan::ExprPtr small(int16_t value) {
  return constant(Value::small_int(value));
}
plan::ExprPtr decimal(int128_t scaled, uint8_t precision, uint8_t scale) {
  return constant(Value::decimal(scaled, precision, scale));
}
plan::ExprPtr real(double value) {
  return constant(Value::double_value(value));
}

std::string binary(ArithmeticOp op, plan::ExprPtr a, plan::ExprPtr b) {
  SqlType type = a->type;
  return run(*arithmetic(op, std::move(a), std::move(b), type));
}

TEST(CodegenExpressionArithmetic, IntegerOperators) {
  EXPECT_EQ(binary(ArithmeticOp::kAdd, integer(40), integer(2)), "42");
  EXPECT_EQ(binary(ArithmeticOp::kSubtract, integer(40), integer(42)), "-2");
  EXPECT_EQ(binary(ArithmeticOp::kMultiply, integer(-6), integer(7)), "-42");
  EXPECT_EQ(binary(ArithmeticOp::kDivide, integer(7), integer(2)), "3");
  EXPECT_EQ(binary(ArithmeticOp::kDivide, integer(-7), integer(2)), "-3");  // toward zero
  EXPECT_EQ(binary(ArithmeticOp::kModulo, integer(-7), integer(2)), "-1");
  EXPECT_EQ(binary(ArithmeticOp::kModulo, integer(7), integer(-2)), "1");
  EXPECT_EQ(binary(ArithmeticOp::kAdd, small(1), small(2)), "3");
  EXPECT_EQ(binary(ArithmeticOp::kMultiply, big(3000000000), big(3)), "9000000000");
}

TEST(CodegenExpressionArithmetic, IntegerOverflowPerType) {
  EXPECT_EQ(binary(ArithmeticOp::kAdd, small(32767), small(1)), "ERROR: smallint out of range");
  EXPECT_EQ(binary(ArithmeticOp::kAdd, integer(2147483647), integer(1)),
            "ERROR: integer out of range");
  EXPECT_EQ(binary(ArithmeticOp::kSubtract, integer(-2147483647 - 1), integer(1)),
            "ERROR: integer out of range");
  EXPECT_EQ(binary(ArithmeticOp::kMultiply, big(std::numeric_limits<int64_t>::max()), big(2)),
            "ERROR: bigint out of range");
  EXPECT_EQ(
      binary(ArithmeticOp::kDivide, integer(std::numeric_limits<int32_t>::min()), integer(-1)),
      "ERROR: integer out of range");
  EXPECT_EQ(
      binary(ArithmeticOp::kModulo, integer(std::numeric_limits<int32_t>::min()), integer(-1)),
      "0");
  EXPECT_EQ(run(*negate(small(-32768))), "ERROR: smallint out of range");
  EXPECT_EQ(run(*negate(integer(5))), "-5");
}

TEST(CodegenExpressionArithmetic, DivisionByZero) {
  EXPECT_EQ(binary(ArithmeticOp::kDivide, integer(1), integer(0)), "ERROR: division by zero");
  EXPECT_EQ(binary(ArithmeticOp::kModulo, big(1), big(0)), "ERROR: division by zero");
  EXPECT_EQ(binary(ArithmeticOp::kDivide, real(1), real(0)), "ERROR: division by zero");
  EXPECT_EQ(binary(ArithmeticOp::kModulo, decimal(100, 5, 2), decimal(0, 5, 2)),
            "ERROR: division by zero");
}

TEST(CodegenExpressionArithmetic, NullPropagationSuppressesErrors) {
  EXPECT_EQ(binary(ArithmeticOp::kDivide, null_of(SqlType::integer()), integer(0)), "NULL");
  EXPECT_EQ(binary(ArithmeticOp::kAdd, integer(2147483647), null_of(SqlType::integer())), "NULL");
  // A NULL column whose value bits are zero must not divide by zero.
  auto expr = arithmetic(ArithmeticOp::kDivide, integer(1), column(0, SqlType::integer()),
                         SqlType::integer());
  EXPECT_EQ(run(*expr, {Value::null(SqlType::integer())}), "NULL");
  EXPECT_EQ(run(*expr, {Value::integer(0)}), "ERROR: division by zero");
  EXPECT_EQ(run(*expr, {Value::integer(-1)}), "-1");
}

TEST(CodegenExpressionArithmetic, NotNullColumnsNeedNoNullLogic) {
  auto expr = arithmetic(ArithmeticOp::kAdd, column(0, SqlType::integer(), false),
                         column(1, SqlType::integer(), false), SqlType::integer());
  EXPECT_FALSE(expr->nullable);
  EXPECT_EQ(run(*expr, {Value::integer(1), Value::integer(2)}),
            "3");  // harness checks null==nullptr
}

TEST(CodegenExpressionArithmetic, DecimalAddSubtractModulo) {
  SqlType type = SqlType::decimal(10, 2);
  EXPECT_EQ(run(*arithmetic(ArithmeticOp::kAdd, decimal(150, 10, 2), decimal(275, 10, 2), type)),
            "4.25");
  EXPECT_EQ(
      run(*arithmetic(ArithmeticOp::kSubtract, decimal(150, 10, 2), decimal(275, 10, 2), type)),
      "-1.25");
  EXPECT_EQ(
      run(*arithmetic(ArithmeticOp::kModulo, decimal(-725, 10, 2), decimal(200, 10, 2), type)),
      "-1.25");
  // Wider result type than the operands: widened before adding.
  SqlType wide = SqlType::decimal(19, 2);
  EXPECT_EQ(run(*arithmetic(ArithmeticOp::kAdd, decimal(999999999999999999, 18, 2),
                            decimal(999999999999999999, 18, 2), wide)),
            "19999999999999999.98");
  int128_t max38 = power_of_ten(38) - 1;
  EXPECT_EQ(run(*arithmetic(ArithmeticOp::kAdd, decimal(max38, 38, 0), decimal(max38, 38, 0),
                            SqlType::decimal(38, 0))),
            "ERROR: numeric field overflow");
  EXPECT_EQ(run(*arithmetic(ArithmeticOp::kSubtract, decimal(max38, 38, 0), decimal(1, 38, 0),
                            SqlType::decimal(38, 0))),
            "99999999999999999999999999999999999998");
}

TEST(CodegenExpressionArithmetic, DecimalMultiply) {
  // numeric(15,2) * numeric(15,2) -> numeric(30,4), computed in 128 bits.
  EXPECT_EQ(run(*arithmetic(ArithmeticOp::kMultiply, decimal(123456789012345, 15, 2),
                            decimal(-100000000000001, 15, 2), SqlType::decimal(30, 4))),
            "-1234567890123462345678901.2345");
  // Mixed scales: 1.5 * 0.25 = 0.375.
  EXPECT_EQ(run(*arithmetic(ArithmeticOp::kMultiply, decimal(15, 5, 1), decimal(25, 5, 2),
                            SqlType::decimal(10, 3))),
            "0.375");
  // integer * decimal.
  EXPECT_EQ(run(*arithmetic(ArithmeticOp::kMultiply, integer(3), decimal(25, 5, 2),
                            SqlType::decimal(15, 2))),
            "0.75");
  EXPECT_EQ(run(*arithmetic(ArithmeticOp::kMultiply, decimal(900000000000000000, 18, 0),
                            decimal(100, 18, 0), SqlType::decimal(18, 0))),
            "ERROR: numeric field overflow");
  int128_t huge = static_cast<int128_t>(1) << 120;
  EXPECT_EQ(run(*arithmetic(ArithmeticOp::kMultiply, decimal(huge, 38, 0), decimal(1000, 38, 0),
                            SqlType::decimal(38, 0))),
            "ERROR: numeric field overflow");
}

TEST(CodegenExpressionArithmetic, DoubleArithmetic) {
  SqlType type = SqlType::double_type();
  EXPECT_EQ(run(*arithmetic(ArithmeticOp::kAdd, real(0.1), real(0.2), type)),
            "0.30000000000000004");
  EXPECT_EQ(run(*arithmetic(ArithmeticOp::kDivide, real(1), real(4), type)), "0.25");
  EXPECT_EQ(run(*arithmetic(ArithmeticOp::kMultiply, real(1e308), real(10), type)), "Infinity");
  EXPECT_EQ(run(*negate(real(2.5))), "-2.5");
  EXPECT_EQ(run(*negate(decimal(-250, 5, 2))), "2.50");
}

TEST(CodegenExpressionArithmetic, UnsupportedCombinationsThrow) {
  auto expr = arithmetic(ArithmeticOp::kModulo, real(1), real(2), SqlType::double_type());
  EXPECT_THROW(evaluate(*expr, {}, JitOptimization::kFast), NotSupported);
}

}  // namespace
}  // namespace floe::codegen::testing
