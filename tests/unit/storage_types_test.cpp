#include <gtest/gtest.h>

#include "storage/date_time.h"
#include "storage/decimal.h"
#include "storage/error.h"
#include "storage/interval.h"
#include "storage/string_ref.h"
#include "storage/value.h"

namespace floe {
namespace {

TEST(DateTest, RoundTripsCivilDates) {
  EXPECT_EQ(parse_date("1970-01-01"), 0);
  EXPECT_EQ(parse_date("1970-01-02"), 1);
  EXPECT_EQ(parse_date("1969-12-31"), -1);
  EXPECT_EQ(format_date(parse_date("1998-12-01")), "1998-12-01");
  EXPECT_EQ(format_date(parse_date("2000-02-29")), "2000-02-29");
  EXPECT_FALSE(try_parse_date("1999-02-29").has_value());
  EXPECT_FALSE(try_parse_date("1999-13-01").has_value());
  EXPECT_FALSE(try_parse_date("hello").has_value());
  EXPECT_THROW(parse_date("1999-02-30"), Error);
  try {
    parse_date("1999-02-30");
  } catch (const Error& error) {
    EXPECT_STREQ(error.what(), "date/time field value out of range: \"1999-02-30\"");
  }
}

TEST(DateTest, IntervalArithmeticClampsMonthEnds) {
  EXPECT_EQ(format_date(add_interval_to_date(parse_date("2020-01-31"), Interval{1, 0, 0})),
            "2020-02-29");
  EXPECT_EQ(format_date(add_interval_to_date(parse_date("1994-01-01"), Interval{12, 0, 0})),
            "1995-01-01");
  EXPECT_EQ(format_date(add_interval_to_date(parse_date("1998-12-01"), Interval{0, -90, 0})),
            "1998-09-02");
  EXPECT_EQ(format_date(add_interval_to_date(parse_date("2000-03-31"), Interval{-1, 0, 0})),
            "2000-02-29");
}

TEST(DateTest, ExtractsFields) {
  int32_t day = parse_date("1995-03-15");
  EXPECT_EQ(extract_from_date(DatePart::kYear, day), 1995);
  EXPECT_EQ(extract_from_date(DatePart::kMonth, day), 3);
  EXPECT_EQ(extract_from_date(DatePart::kDay, day), 15);
  EXPECT_EQ(extract_from_date(DatePart::kQuarter, day), 1);
  EXPECT_EQ(extract_from_date(DatePart::kDayOfWeek, day), 3);  // a Wednesday
  EXPECT_EQ(extract_from_date(DatePart::kDayOfYear, day), 74);
}

TEST(TimestampTest, ParsesAndFormats) {
  int64_t ts = parse_timestamp("2001-02-03 04:05:06.5");
  EXPECT_EQ(format_timestamp(ts), "2001-02-03 04:05:06.5");
  EXPECT_EQ(format_timestamp(parse_timestamp("1969-12-31 23:59:59")), "1969-12-31 23:59:59");
  EXPECT_EQ(extract_from_timestamp(DatePart::kHour, ts), 4);
  EXPECT_FALSE(try_parse_timestamp("2001-02-03 25:00:00").has_value());
}

TEST(IntervalTest, ParsesAndFormats) {
  EXPECT_EQ(parse_interval("90 days"), (Interval{0, 90, 0}));
  EXPECT_EQ(parse_interval("1 year 2 mons"), (Interval{14, 0, 0}));
  EXPECT_EQ(format_interval(Interval{14, 3, 3600 * kMicrosPerSecond}), "1 year 2 mons 3 days 01:00:00");
  EXPECT_EQ(format_interval(Interval{}), "00:00:00");
  EXPECT_THROW(parse_interval("3 fortnights"), Error);
  EXPECT_LT(compare_intervals(Interval{0, 29, 0}, Interval{1, 0, 0}), 0);
}

TEST(DecimalTest, ParsesWithRounding) {
  EXPECT_EQ(*try_parse_decimal("12.345", 10, 2), 1235);  // half away from zero
  EXPECT_EQ(*try_parse_decimal("-12.345", 10, 2), -1235);
  EXPECT_EQ(*try_parse_decimal(".5", 5, 1), 5);
  EXPECT_EQ(*try_parse_decimal("1e3", 10, 0), 1000);
  EXPECT_EQ(*try_parse_decimal("0.0001", 5, 2), 0);
  EXPECT_FALSE(try_parse_decimal("123.4", 4, 2).has_value());  // needs 5 digits
  EXPECT_FALSE(try_parse_decimal("1.2.3", 10, 2).has_value());
  EXPECT_FALSE(try_parse_decimal("", 10, 2).has_value());
}

TEST(DecimalTest, LiteralShape) {
  unsigned precision, scale;
  ASSERT_TRUE(decimal_literal_shape("0.06", precision, scale));
  EXPECT_EQ(scale, 2u);
  EXPECT_GE(precision, 2u);
  ASSERT_TRUE(decimal_literal_shape("123.5", precision, scale));
  EXPECT_EQ(precision, 4u);
  EXPECT_EQ(scale, 1u);
}

TEST(DecimalTest, FormatsAndRescales) {
  EXPECT_EQ(format_decimal(12345, 2), "123.45");
  EXPECT_EQ(format_decimal(-5, 2), "-0.05");
  EXPECT_EQ(format_decimal(0, 3), "0.000");
  EXPECT_EQ(format_decimal(42, 0), "42");
  EXPECT_EQ(*rescale_decimal(1235, 2, 10, 1), 124);
  EXPECT_EQ(*rescale_decimal(-1235, 2, 10, 1), -124);
  EXPECT_EQ(*rescale_decimal(12, 1, 10, 3), 1200);
  int128_t big = power_of_ten(37) * 3;
  EXPECT_EQ(format_int128(big), "3" + std::string(37, '0'));
}

// The checked operations shared by constant folding and generated code: results are held to
// the precision, not just to 128 bits.
TEST(DecimalTest, OperationsHoldResultsToTheirPrecision) {
  int128_t max38 = power_of_ten(38) - 1;
  EXPECT_EQ(*add_decimals(max38 - 1, 1, 38), max38);
  EXPECT_FALSE(add_decimals(max38, 1, 38).has_value());      // 39 digits, fits 128 bits
  EXPECT_FALSE(add_decimals(max38, max38, 38).has_value());  // beyond 128 bits
  EXPECT_FALSE(subtract_decimals(-max38, 1, 38).has_value());
  EXPECT_EQ(*subtract_decimals(-max38, -1, 38), -max38 + 1);
  EXPECT_FALSE(add_decimals(99, 1, 2).has_value());
  EXPECT_EQ(*multiply_decimals(power_of_ten(19) - 1, power_of_ten(19) + 1, 38), max38);
  EXPECT_FALSE(multiply_decimals(power_of_ten(19), power_of_ten(19), 38).has_value());
  EXPECT_FALSE(multiply_decimals(int128_t{1} << 100, int128_t{1} << 100, 38).has_value());
  EXPECT_TRUE(fits_precision(-max38, 38));
  EXPECT_FALSE(fits_precision(power_of_ten(5), 5));
}

TEST(DecimalTest, RescalesWithRoundingAndChecks) {
  EXPECT_EQ(*rescale_decimal(99995, 3, 5, 2), 10000);               // 99.995 -> 100.00
  EXPECT_FALSE(rescale_decimal(99995, 3, 4, 2).has_value());        // 100.00 needs 5 digits
  EXPECT_FALSE(rescale_decimal(9995, 1, 3, 0).has_value());         // 999.5 -> 1000
  EXPECT_FALSE(rescale_decimal(INT64_MAX, 0, 38, 20).has_value());  // 19 + 20 digits
  EXPECT_EQ(*rescale_decimal(INT64_MAX, 0, 38, 19), int128_t{INT64_MAX} * power_of_ten(19));
  // Dividing by 10^38 must not overflow while rounding.
  EXPECT_EQ(*rescale_decimal(power_of_ten(38) - 1, 38, 1, 0), 1);
  EXPECT_EQ(*rescale_decimal(-(power_of_ten(38) / 2), 38, 1, 0), -1);
  EXPECT_EQ(*rescale_decimal(power_of_ten(38) / 2 - 1, 38, 1, 0), 0);
  EXPECT_EQ(decimal_or_overflow(int128_t{7}), 7);
  EXPECT_THROW(decimal_or_overflow(std::nullopt), Error);
}

TEST(StringRefTest, InlineAndPointerStrings) {
  std::string long_text = "a string that is longer than twelve bytes";
  StringRef short_ref = StringRef::from("hello");
  StringRef long_ref = StringRef::from(long_text);
  EXPECT_TRUE(short_ref.is_inline());
  EXPECT_FALSE(long_ref.is_inline());
  EXPECT_EQ(short_ref.view(), "hello");
  EXPECT_EQ(long_ref.view(), long_text);
  std::string copy = long_text;
  EXPECT_TRUE(long_ref == StringRef::from(copy));
  EXPECT_FALSE(long_ref == StringRef::from(copy + "x"));
  EXPECT_LT(StringRef::compare(StringRef::from("abc"), StringRef::from("abd")), 0);
  EXPECT_LT(StringRef::compare(StringRef::from("ab"), StringRef::from("abc")), 0);
  EXPECT_GT(StringRef::compare(StringRef::from("b"), StringRef::from("abcdefghijklmnop")), 0);
  EXPECT_EQ(StringRef::compare(StringRef::from(""), StringRef::from("")), 0);
}

TEST(ValueTest, FormatsLikePostgres) {
  EXPECT_EQ(Value::boolean(true).to_string(), "t");
  EXPECT_EQ(Value::decimal(50, 15, 2).to_string(), "0.50");
  EXPECT_EQ(Value::double_value(0.1).to_string(), "0.1");
  EXPECT_EQ(Value::double_value(25.575154611454693).to_string(), "25.575154611454693");
  EXPECT_EQ(Value::double_value(1e20).to_string(), "1e+20");
  EXPECT_EQ(Value::double_value(1e-5).to_string(), "1e-05");
  EXPECT_EQ(Value::double_value(123456.0).to_string(), "123456");
  EXPECT_EQ(Value::null(SqlType::integer()).to_string(), "NULL");
  EXPECT_EQ(Value::date(parse_date("1995-03-15")).to_string(), "1995-03-15");
}

TEST(ValueTest, ParsesText) {
  EXPECT_EQ(parse_value(" 42 ", SqlType::integer()).as_int64(), 42);
  EXPECT_THROW(parse_value("4x", SqlType::integer()), Error);
  EXPECT_THROW(parse_value("40000", SqlType::small_int()), Error);
  EXPECT_EQ(parse_value("24710.35", SqlType::decimal(15, 2)).as_int128(), 2471035);
  EXPECT_THROW(parse_value("abc", SqlType::decimal(15, 2)), Error);
  EXPECT_EQ(parse_value("yes", SqlType::boolean()).as_bool(), true);
  EXPECT_EQ(parse_value("ab  ", SqlType::char_type(4)).as_string(), "ab");
  EXPECT_THROW(parse_value("abcde", SqlType::varchar(4)), Error);
  EXPECT_EQ(parse_value("abcd   ", SqlType::varchar(4)).as_string(), "abcd");
}

TEST(ValueTest, CastsWithPostgresRules) {
  EXPECT_EQ(cast_value(Value::decimal(250, 5, 2), SqlType::integer()).as_int64(), 3);
  EXPECT_EQ(cast_value(Value::decimal(-250, 5, 2), SqlType::integer()).as_int64(), -3);
  EXPECT_EQ(cast_value(Value::double_value(2.5), SqlType::integer()).as_int64(), 2);  // rint
  EXPECT_EQ(cast_value(Value::integer(7), SqlType::decimal(5, 2)).as_int128(), 700);
  EXPECT_THROW(cast_value(Value::integer(7000), SqlType::decimal(5, 2)), Error);
  EXPECT_EQ(cast_value(Value::string("2001-01-01"), SqlType::date()).to_string(), "2001-01-01");
  EXPECT_EQ(cast_value(Value::date(1), SqlType::timestamp()).to_string(), "1970-01-02 00:00:00");
  EXPECT_EQ(cast_value(Value::decimal(12345, 10, 2), SqlType::text()).as_string(), "123.45");
  EXPECT_TRUE(cast_value(Value::null(SqlType::integer()), SqlType::text()).is_null());
  EXPECT_EQ(cast_value(Value::boolean(true), SqlType::text()).as_string(), "true");
  EXPECT_THROW(cast_value(Value::date(1), SqlType::integer()), Error);
}

TEST(ValueTest, PhysicalRoundTrip) {
  for (const Value& value :
       {Value::small_int(-3), Value::integer(123456), Value::big_int(-9000000000LL),
        Value::decimal(power_of_ten(30), 38, 2), Value::double_value(3.25), Value::date(9000),
        Value::string("a long string with more than twelve bytes")}) {
    alignas(16) uint8_t buffer[16];
    value.write_physical(buffer);
    EXPECT_EQ(Value::read_physical(buffer, value.type()), value) << value.to_string();
  }
}

}  // namespace
}  // namespace floe
