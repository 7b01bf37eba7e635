#include <gtest/gtest.h>

#include <cmath>

#include "storage/error.h"
#include "tests/unit/codegen_expression_harness.h"

namespace floe::codegen::testing {
namespace {

// CAST of a (nullable) column holding `value`, so the cast happens in generated code.
std::string cast_of(Value value, SqlType target) {
  SqlType type = value.type();
  return run(*cast(column(0, type), target), {std::move(value)});
}

TEST(CodegenExpressionCast, IntegerWidths) {
  EXPECT_EQ(cast_of(Value::small_int(-5), SqlType::big_int()), "-5");
  EXPECT_EQ(cast_of(Value::integer(32767), SqlType::small_int()), "32767");
  EXPECT_EQ(cast_of(Value::integer(32768), SqlType::small_int()), "ERROR: smallint out of range");
  EXPECT_EQ(cast_of(Value::big_int(-2147483649LL), SqlType::integer()),
            "ERROR: integer out of range");
  EXPECT_EQ(cast_of(Value::null(SqlType::big_int()), SqlType::small_int()), "NULL");
  EXPECT_EQ(cast_of(Value::integer(2), SqlType::boolean()), "t");
  EXPECT_EQ(cast_of(Value::boolean(true), SqlType::integer()), "1");
}

TEST(CodegenExpressionCast, DecimalRescaleRoundsHalfAwayFromZero) {
  EXPECT_EQ(cast_of(Value::decimal(12345, 10, 3), SqlType::decimal(10, 2)), "12.35");
  EXPECT_EQ(cast_of(Value::decimal(-12345, 10, 3), SqlType::decimal(10, 2)), "-12.35");
  EXPECT_EQ(cast_of(Value::decimal(12344, 10, 3), SqlType::decimal(10, 2)), "12.34");
  EXPECT_EQ(cast_of(Value::decimal(125, 5, 2), SqlType::decimal(20, 6)), "1.250000");
  EXPECT_EQ(cast_of(Value::decimal(999, 3, 2), SqlType::decimal(2, 1)),
            "ERROR: numeric field overflow");
  EXPECT_EQ(cast_of(Value::decimal(12345, 10, 2), SqlType::decimal(4, 2)),
            "ERROR: numeric field overflow");
  // 128-bit source rescaled down into 64 bits.
  int128_t wide = static_cast<int128_t>(123456789012345678LL) * 1000 + 500;  // ...678.500
  EXPECT_EQ(cast_of(Value::decimal(wide, 30, 3), SqlType::decimal(18, 0)), "123456789012345679");
  EXPECT_EQ(cast_of(Value::decimal(-wide, 30, 3), SqlType::decimal(18, 0)), "-123456789012345679");
}

TEST(CodegenExpressionCast, IntegersAndDecimals) {
  EXPECT_EQ(cast_of(Value::integer(-42), SqlType::decimal(5, 2)), "-42.00");
  EXPECT_EQ(cast_of(Value::integer(1000), SqlType::decimal(5, 2)), "ERROR: numeric field overflow");
  EXPECT_EQ(cast_of(Value::big_int(9223372036854775807LL), SqlType::decimal(38, 10)),
            "9223372036854775807.0000000000");
  EXPECT_EQ(cast_of(Value::decimal(250, 5, 2), SqlType::integer()), "3");
  EXPECT_EQ(cast_of(Value::decimal(-250, 5, 2), SqlType::integer()), "-3");
  EXPECT_EQ(cast_of(Value::decimal(249, 5, 2), SqlType::integer()), "2");
  EXPECT_EQ(cast_of(Value::decimal(3276750, 10, 2), SqlType::small_int()),
            "ERROR: smallint out of range");
}

TEST(CodegenExpressionCast, Doubles) {
  EXPECT_EQ(cast_of(Value::integer(7), SqlType::double_type()), "7");
  EXPECT_EQ(cast_of(Value::decimal(-125, 10, 2), SqlType::double_type()), "-1.25");
  EXPECT_EQ(cast_of(Value::decimal(1, 38, 2), SqlType::double_type()), "0.01");
  // rint(): half to even.
  EXPECT_EQ(cast_of(Value::double_value(2.5), SqlType::integer()), "2");
  EXPECT_EQ(cast_of(Value::double_value(3.5), SqlType::integer()), "4");
  EXPECT_EQ(cast_of(Value::double_value(-2.6), SqlType::big_int()), "-3");
  EXPECT_EQ(cast_of(Value::double_value(3e9), SqlType::integer()), "ERROR: integer out of range");
  EXPECT_EQ(cast_of(Value::double_value(NAN), SqlType::small_int()),
            "ERROR: smallint out of range");
  EXPECT_EQ(cast_of(Value::double_value(9.3e18), SqlType::big_int()), "ERROR: bigint out of range");
  EXPECT_EQ(cast_of(Value::double_value(1.005), SqlType::decimal(10, 2)), "1.01");
  EXPECT_EQ(cast_of(Value::double_value(-0.125), SqlType::decimal(10, 2)), "-0.13");
  EXPECT_EQ(cast_of(Value::null(SqlType::double_type()), SqlType::decimal(10, 2)), "NULL");
}

TEST(CodegenExpressionCast, FromText) {
  EXPECT_EQ(cast_of(Value::string("42"), SqlType::integer()), "42");
  // Parsed as smallint, with int2in's message (not as bigint, then range-checked).
  EXPECT_EQ(cast_of(Value::string("70000"), SqlType::small_int()),
            "ERROR: value \"70000\" is out of range for type smallint");
  EXPECT_EQ(cast_of(Value::string("12.345"), SqlType::decimal(10, 2)), "12.35");
  EXPECT_EQ(cast_of(Value::string("2.5e3"), SqlType::double_type()), "2500");
  EXPECT_EQ(cast_of(Value::string("1998-12-01"), SqlType::date()), "1998-12-01");
  EXPECT_EQ(cast_of(Value::string("1998-12-01 10:11:12"), SqlType::timestamp()),
            "1998-12-01 10:11:12");
  EXPECT_EQ(cast_of(Value::string("true"), SqlType::boolean()), "t");
  EXPECT_EQ(cast_of(Value::string("abc  "), SqlType::char_type(5)), "abc");  // no trailing blanks
  EXPECT_EQ(cast_of(Value::string("abc"), SqlType::varchar(5)), "abc");
  EXPECT_EQ(cast_of(Value::null(SqlType::text()), SqlType::integer()), "NULL");
  std::string error = cast_of(Value::string("abc"), SqlType::integer());
  EXPECT_EQ(error.rfind("ERROR: invalid input syntax for type", 0), 0u) << error;
}

TEST(CodegenExpressionCast, ToText) {
  EXPECT_EQ(cast_of(Value::integer(-42), SqlType::text()), "-42");
  EXPECT_EQ(cast_of(Value::decimal(-5, 10, 2), SqlType::text()), "-0.05");
  EXPECT_EQ(cast_of(Value::double_value(0.1), SqlType::text()), "0.1");
  EXPECT_EQ(cast_of(Value::date(0), SqlType::text()), "1970-01-01");
  EXPECT_EQ(cast_of(Value::timestamp(1500000), SqlType::text()), "1970-01-01 00:00:01.5");
  EXPECT_EQ(cast_of(Value::boolean(false), SqlType::text()), "false");
  EXPECT_EQ(cast_of(Value::big_int(1234567890123LL), SqlType::varchar(20)), "1234567890123");
  EXPECT_EQ(cast_of(Value::string("abc", SqlType::char_type(5)), SqlType::text()), "abc");
}

TEST(CodegenExpressionCast, DatesAndTimestamps) {
  EXPECT_EQ(cast_of(Value::date(-1), SqlType::timestamp()), "1969-12-31 00:00:00");
  EXPECT_EQ(cast_of(Value::timestamp(-1), SqlType::date()), "1969-12-31");
  EXPECT_EQ(cast_of(Value::timestamp(86400LL * 1000000), SqlType::date()), "1970-01-02");
}

TEST(CodegenExpressionCast, NullLiteralAndUnsupported) {
  EXPECT_EQ(run(*cast(null_of(SqlType::unknown()), SqlType::integer())), "NULL");
  EXPECT_THROW(evaluate(*cast(column(0, SqlType::date()), SqlType::integer()), {Value::date(1)},
                        JitOptimization::kFast),
               NotSupported);
}

}  // namespace
}  // namespace floe::codegen::testing
