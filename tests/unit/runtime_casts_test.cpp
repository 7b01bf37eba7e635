#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <string>

#include "runtime/query_context.h"
#include "runtime/runtime_abi.h"
#include "runtime_test_strings.h"
#include "storage/date_time.h"

namespace floe {
namespace {

using testing::halves;
using testing::text_of;

class RuntimeCastTest : public ::testing::Test {
 protected:
  WorkerContext* worker() { return &query_.worker(0); }

  // Runs a failing cast and returns the recorded message (on a fresh context).
  template <typename Cast>
  std::string failure(Cast cast) {
    QueryContext query(1);
    EXPECT_FALSE(cast(&query.worker(0)));
    EXPECT_TRUE(query.failed());
    return query.error_message();
  }

  QueryContext query_{1};
};

constexpr auto kSmallInt = static_cast<uint32_t>(TypeId::kSmallInt);
constexpr auto kInteger = static_cast<uint32_t>(TypeId::kInteger);
constexpr auto kBigInt = static_cast<uint32_t>(TypeId::kBigInt);

TEST_F(RuntimeCastTest, TextToInteger) {
  int64_t value = 0;
  auto h = halves(" 42 ");
  ASSERT_TRUE(floe_rt_cast_string_to_integer(worker(), h.lo, h.hi, kBigInt, &value));
  EXPECT_EQ(value, 42);
  h = halves("-9223372036854775808");
  ASSERT_TRUE(floe_rt_cast_string_to_integer(worker(), h.lo, h.hi, kBigInt, &value));
  EXPECT_EQ(value, std::numeric_limits<int64_t>::min());
  // The message of parsing `text` as the integer type `to`.
  auto integer_failure = [&](const char* text, uint32_t to) {
    return failure([&](WorkerContext* w) {
      int64_t v;
      auto x = halves(text);
      return floe_rt_cast_string_to_integer(w, x.lo, x.hi, to, &v);
    });
  };
  EXPECT_EQ(integer_failure("12abc", kBigInt), "invalid input syntax for type bigint: \"12abc\"");
  EXPECT_EQ(integer_failure("9223372036854775808", kBigInt),
            "value \"9223372036854775808\" is out of range for type bigint");
  // An integer target is parsed as integer, not as bigint (PostgreSQL's int4in).
  EXPECT_EQ(integer_failure("x", kInteger), "invalid input syntax for type integer: \"x\"");
  EXPECT_EQ(integer_failure("40000", kSmallInt),
            "value \"40000\" is out of range for type smallint");
  EXPECT_FALSE(query_.failed());
}

TEST_F(RuntimeCastTest, TextToDoubleAndDecimal) {
  double d = 0;
  auto h = halves("1.5e3");
  ASSERT_TRUE(floe_rt_cast_string_to_double(worker(), h.lo, h.hi, &d));
  EXPECT_EQ(d, 1500.0);
  h = halves("NaN");
  ASSERT_TRUE(floe_rt_cast_string_to_double(worker(), h.lo, h.hi, &d));
  EXPECT_TRUE(std::isnan(d));

  __int128 scaled = 0;
  h = halves("12.345");
  ASSERT_TRUE(floe_rt_cast_string_to_decimal(worker(), h.lo, h.hi, 15, 2, &scaled));
  EXPECT_TRUE(scaled == 1235);  // rounds half away from zero
  h = halves("-0.005");
  ASSERT_TRUE(floe_rt_cast_string_to_decimal(worker(), h.lo, h.hi, 15, 2, &scaled));
  EXPECT_TRUE(scaled == -1);
  h = halves("123456789012345678901234567890.5");
  ASSERT_TRUE(floe_rt_cast_string_to_decimal(worker(), h.lo, h.hi, 38, 1, &scaled));
  EXPECT_TRUE(scaled / 10 ==
              static_cast<__int128>(123456789012345678ll) * 1000000000000ll + 901234567890ll);
  EXPECT_EQ(failure([](WorkerContext* w) {
              __int128 v;
              auto x = halves("1000");
              return floe_rt_cast_string_to_decimal(w, x.lo, x.hi, 4, 2, &v);
            }),
            "numeric field overflow");
  EXPECT_EQ(failure([](WorkerContext* w) {
              double v;
              auto x = halves("one");
              return floe_rt_cast_string_to_double(w, x.lo, x.hi, &v);
            }),
            "invalid input syntax for type double precision: \"one\"");
}

TEST_F(RuntimeCastTest, DecimalRescale) {
  __int128 scaled = 0;
  ASSERT_TRUE(floe_rt_decimal_rescale(worker(), -99995, 3, 5, 2, &scaled));
  EXPECT_TRUE(scaled == -10000);  // -99.995 -> -100.00
  ASSERT_TRUE(floe_rt_decimal_rescale(worker(), 25, 1, 38, 0, &scaled));
  EXPECT_TRUE(scaled == 3);
  EXPECT_EQ(failure([](WorkerContext* w) {
              __int128 v;
              return floe_rt_decimal_rescale(w, 99995, 3, 4, 2, &v);
            }),
            "numeric field overflow");
  EXPECT_FALSE(query_.failed());
}

TEST_F(RuntimeCastTest, TextToDateTimestampBool) {
  int32_t days = 0;
  auto h = halves("1998-12-01");
  ASSERT_TRUE(floe_rt_cast_string_to_date(worker(), h.lo, h.hi, &days));
  EXPECT_EQ(days, parse_date("1998-12-01"));
  int64_t micros = 0;
  h = halves("1998-12-01 10:20:30.5");
  ASSERT_TRUE(floe_rt_cast_string_to_timestamp(worker(), h.lo, h.hi, &micros));
  EXPECT_EQ(micros, parse_timestamp("1998-12-01 10:20:30.5"));
  bool flag = false;
  h = halves("yes");
  ASSERT_TRUE(floe_rt_cast_string_to_bool(worker(), h.lo, h.hi, &flag));
  EXPECT_TRUE(flag);
  EXPECT_EQ(failure([](WorkerContext* w) {
              int32_t v;
              auto x = halves("1999-02-30");
              return floe_rt_cast_string_to_date(w, x.lo, x.hi, &v);
            }),
            "date/time field value out of range: \"1999-02-30\"");
  EXPECT_FALSE(failure([](WorkerContext* w) {
                 bool v;
                 auto x = halves("maybe");
                 return floe_rt_cast_string_to_bool(w, x.lo, x.hi, &v);
               }).empty());
}

TEST_F(RuntimeCastTest, TextToCharAndVarchar) {
  // An explicit cast (the only kind generated code makes): cut to n characters, CHAR without
  // trailing blanks.
  auto cast = [&](std::string_view text, uint32_t max_length, bool is_char) {
    auto h = halves(text);
    return text_of(floe_rt_cast_string_to_string(h.lo, h.hi, max_length, is_char));
  };
  EXPECT_EQ(cast("abc", 0, false), "abc");
  EXPECT_EQ(cast("abc  ", 0, false), "abc  ");
  EXPECT_EQ(cast("abc  ", 0, true), "abc");
  EXPECT_EQ(cast("abc", 3, false), "abc");
  EXPECT_EQ(cast("ab    ", 3, false), "ab ");
  EXPECT_EQ(cast("ab    ", 3, true), "ab");
  EXPECT_EQ(cast("abcd", 3, false), "abc");
  EXPECT_EQ(cast("abcd ", 3, true), "abc");
  std::string long_text = "a long string with trailing blanks     ";
  EXPECT_EQ(cast(long_text, 0, true), "a long string with trailing blanks");
  EXPECT_EQ(cast(long_text, 40, false), long_text);
  EXPECT_EQ(cast(long_text, 14, false), "a long string ");
  EXPECT_EQ(cast(long_text, 14, true), "a long string");
  // n counts characters: 2-, 3- and 4-byte ones.
  EXPECT_EQ(cast("h\u00e9llo", 5, false), "h\u00e9llo");
  EXPECT_EQ(cast("h\u00e9llo", 2, false), "h\u00e9");
  EXPECT_EQ(cast("\u20ac\u20ac\u20ac\u20ac\u20ac", 4, true), "\u20ac\u20ac\u20ac\u20ac");
  EXPECT_EQ(cast("\U0001F600\U0001F600\U0001F600\U0001F600 x", 4, false),
            "\U0001F600\U0001F600\U0001F600\U0001F600");
  EXPECT_EQ(cast("\u00e9  ", 2, true), "\u00e9");
  EXPECT_FALSE(query_.failed());
}

TEST_F(RuntimeCastTest, ValuesToText) {
  EXPECT_EQ(text_of(floe_rt_cast_int64_to_string(worker(), -42)), "-42");
  EXPECT_EQ(text_of(floe_rt_cast_int64_to_string(worker(), std::numeric_limits<int64_t>::min())),
            "-9223372036854775808");
  EXPECT_EQ(text_of(floe_rt_cast_double_to_string(worker(), 0.1)), "0.1");
  EXPECT_EQ(text_of(floe_rt_cast_double_to_string(worker(), 1e20)), "1e+20");
  EXPECT_EQ(text_of(floe_rt_cast_decimal_to_string(worker(), -1234, 2)), "-12.34");
  EXPECT_EQ(text_of(floe_rt_cast_decimal_to_string(worker(), 5, 3)), "0.005");
  EXPECT_EQ(text_of(floe_rt_cast_date_to_string(worker(), parse_date("1995-03-15"))), "1995-03-15");
  EXPECT_EQ(text_of(floe_rt_cast_timestamp_to_string(worker(),
                                                     parse_timestamp("2001-02-03 04:05:06.25"))),
            "2001-02-03 04:05:06.25");
  EXPECT_EQ(text_of(floe_rt_cast_bool_to_string(worker(), true)), "true");
  EXPECT_EQ(text_of(floe_rt_cast_bool_to_string(worker(), false)), "false");
}

TEST(RuntimeDateTest, ExtractAndIntervalArithmetic) {
  int32_t day = parse_date("1996-02-29");
  EXPECT_EQ(floe_rt_extract_date(static_cast<int32_t>(DatePart::kYear), day), 1996);
  EXPECT_EQ(floe_rt_extract_date(static_cast<int32_t>(DatePart::kMonth), day), 2);
  EXPECT_EQ(floe_rt_extract_date(static_cast<int32_t>(DatePart::kDay), day), 29);
  int64_t ts = parse_timestamp("1996-02-29 13:14:15");
  EXPECT_EQ(floe_rt_extract_timestamp(static_cast<int32_t>(DatePart::kHour), ts), 13);
  // numeric(8,6): seconds with six fractional digits
  EXPECT_EQ(floe_rt_extract_timestamp(static_cast<int32_t>(DatePart::kSecond), ts), 15000000);
  EXPECT_EQ(floe_rt_date_add_months(day, 12), parse_date("1997-02-28"));  // clamped
  EXPECT_EQ(floe_rt_date_add_months(parse_date("1998-01-31"), -2), parse_date("1997-11-30"));
  EXPECT_EQ(floe_rt_timestamp_add_interval(ts, 1, 2, 3 * kMicrosPerSecond),
            parse_timestamp("1996-03-31 13:14:18"));
}

}  // namespace
}  // namespace floe
