#include <gtest/gtest.h>

#include "storage/date_time.h"
#include "tests/unit/codegen_expression_harness.h"

namespace floe::codegen::testing {
namespace {

using plan::ArithmeticOp;

Value date(const char* text) {
  return Value::date(parse_date(text));
}
Value timestamp(const char* text) {
  return Value::timestamp(parse_timestamp(text));
}
Value interval(int32_t months, int32_t days, int64_t micros = 0) {
  return Value::interval({months, days, micros});
}

std::string binary(ArithmeticOp op, Value a, Value b, SqlType result) {
  SqlType a_type = a.type();
  SqlType b_type = b.type();
  return run(*arithmetic(op, column(0, a_type), column(1, b_type), result),
             {std::move(a), std::move(b)});
}

TEST(CodegenExpressionTemporal, DateAndDays) {
  EXPECT_EQ(binary(ArithmeticOp::kAdd, date("1998-12-01"), Value::integer(31), SqlType::date()),
            "1999-01-01");
  EXPECT_EQ(binary(ArithmeticOp::kAdd, Value::integer(1), date("2000-02-28"), SqlType::date()),
            "2000-02-29");
  EXPECT_EQ(
      binary(ArithmeticOp::kSubtract, date("1998-12-01"), Value::integer(90), SqlType::date()),
      "1998-09-02");
  EXPECT_EQ(
      binary(ArithmeticOp::kSubtract, date("1998-12-01"), date("1998-01-01"), SqlType::integer()),
      "334");
  EXPECT_EQ(
      binary(ArithmeticOp::kAdd, Value::null(SqlType::date()), Value::integer(1), SqlType::date()),
      "NULL");
}

TEST(CodegenExpressionTemporal, IntervalsClampTheDayOfMonth) {
  EXPECT_EQ(binary(ArithmeticOp::kAdd, date("1995-01-31"), interval(1, 0), SqlType::timestamp()),
            "1995-02-28 00:00:00");
  EXPECT_EQ(binary(ArithmeticOp::kAdd, date("1996-01-31"), interval(1, 0), SqlType::timestamp()),
            "1996-02-29 00:00:00");
  EXPECT_EQ(
      binary(ArithmeticOp::kSubtract, date("1998-12-01"), interval(0, 90), SqlType::timestamp()),
      "1998-09-02 00:00:00");
  EXPECT_EQ(
      binary(ArithmeticOp::kSubtract, date("1995-03-31"), interval(1, 0), SqlType::timestamp()),
      "1995-02-28 00:00:00");
  EXPECT_EQ(binary(ArithmeticOp::kAdd, interval(12, 0), date("1994-01-01"), SqlType::timestamp()),
            "1995-01-01 00:00:00");
  EXPECT_EQ(binary(ArithmeticOp::kAdd, timestamp("1995-01-31 10:00:00"),
                   interval(1, 1, 3600LL * 1000000), SqlType::timestamp()),
            "1995-03-01 11:00:00");
  EXPECT_EQ(binary(ArithmeticOp::kAdd, Value::null(SqlType::date()), interval(1, 0),
                   SqlType::timestamp()),
            "NULL");
  // A date-typed result (the binder may keep the date when the interval has no time part).
  EXPECT_EQ(binary(ArithmeticOp::kAdd, date("1995-01-31"), interval(3, 0), SqlType::date()),
            "1995-04-30");
}

TEST(CodegenExpressionTemporal, IntervalArithmetic) {
  EXPECT_EQ(binary(ArithmeticOp::kAdd, interval(1, 2, 3), interval(4, 5, 6), SqlType::interval()),
            Value::interval({5, 7, 9}).to_string());
  EXPECT_EQ(binary(ArithmeticOp::kSubtract, timestamp("1995-01-03 12:00:00"),
                   timestamp("1995-01-01 00:00:00"), SqlType::interval()),
            Value::interval({0, 2, 12 * 3600LL * 1000000}).to_string());
  EXPECT_EQ(run(*negate(constant(interval(1, -2, 3)))), Value::interval({-1, 2, -3}).to_string());
}

TEST(CodegenExpressionTemporal, IntervalTimesNumber) {
  EXPECT_EQ(binary(ArithmeticOp::kMultiply, interval(1, 0), Value::double_value(0.5),
                   SqlType::interval()),
            "15 days");
  EXPECT_EQ(binary(ArithmeticOp::kDivide, interval(0, 1), Value::double_value(4),
                   SqlType::interval()),
            "06:00:00");
  EXPECT_EQ(binary(ArithmeticOp::kMultiply, interval(0, 0), Value::null(SqlType::double_type()),
                   SqlType::interval()),
            "NULL");
  EXPECT_EQ(binary(ArithmeticOp::kDivide, interval(0, 1), Value::double_value(0),
                   SqlType::interval()),
            "ERROR: division by zero");
}

std::string extract(DatePart part, Value value) {
  SqlType type = value.type();
  ExtractType result = *extract_type(part, type.id);
  auto expr = node(plan::ExprKind::kExtract, SqlType::decimal(result.precision, result.scale),
                   list(column(0, type)));
  expr->date_part = part;
  return run(*expr, {std::move(value)});
}

TEST(CodegenExpressionTemporal, Extract) {
  EXPECT_EQ(extract(DatePart::kYear, date("1998-12-01")), "1998");
  EXPECT_EQ(extract(DatePart::kMonth, date("1998-12-01")), "12");
  EXPECT_EQ(extract(DatePart::kDay, timestamp("1998-12-01 10:11:12")), "1");
  EXPECT_EQ(extract(DatePart::kHour, timestamp("1998-12-01 10:11:12")), "10");
  EXPECT_EQ(extract(DatePart::kYear, Value::null(SqlType::date())), "NULL");
  EXPECT_EQ(extract(DatePart::kSecond, timestamp("1998-12-01 10:11:12.5")), "12.500000");
  EXPECT_EQ(extract(DatePart::kEpoch, timestamp("1970-01-02 00:00:01.25")), "86401.250000");
  EXPECT_EQ(extract(DatePart::kEpoch, Value::interval({13, 1, 1})), "34236000.000001");
  EXPECT_EQ(extract(DatePart::kMonth, Value::interval({-14, 0, 0})), "-2");
}

}  // namespace
}  // namespace floe::codegen::testing
