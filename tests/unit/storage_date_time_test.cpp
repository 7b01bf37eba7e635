// Date, timestamp and interval input, output, arithmetic and fields (storage/date_time.h,
// storage/interval.h, storage/date_part.h); expected values from PostgreSQL 15.
#include <gtest/gtest.h>

#include "storage/date_time.h"
#include "storage/error.h"
#include "tests/unit/error_message.h"
#include "storage/interval.h"

namespace floe {
namespace {

std::string date_text(std::string_view input) { return format_date(parse_date(input)); }
std::string timestamp_text(std::string_view input) {
  return format_timestamp(parse_timestamp(input));
}
std::string interval_text(std::string_view input) { return format_interval(parse_interval(input)); }

using floe::testing::error_of;

TEST(DateInputTest, AcceptsPostgresForms) {
  EXPECT_EQ(date_text("20240507"), "2024-05-07");
  EXPECT_EQ(date_text("2024/05/07"), "2024-05-07");
  EXPECT_EQ(date_text("2024.05.07"), "2024-05-07");
  EXPECT_EQ(date_text("05/07/2024"), "2024-05-07");  // DateStyle MDY
  EXPECT_EQ(date_text("May 7, 2024"), "2024-05-07");
  EXPECT_EQ(date_text("7 May 2024"), "2024-05-07");
  EXPECT_EQ(date_text("2024-May-07"), "2024-05-07");
  EXPECT_EQ(date_text("September 30 1999"), "1999-09-30");
  EXPECT_EQ(date_text(" 2024-05-07 10:11:12 "), "2024-05-07");
  EXPECT_EQ(date_text("0044-03-15 BC"), "0044-03-15 BC");
  EXPECT_EQ(date_text("epoch"), "1970-01-01");
  EXPECT_EQ(date_text("1/8/99"), "1999-01-08");
}

TEST(DateInputTest, RejectsWithPostgresMessages) {
  EXPECT_EQ(error_of([] { parse_date("1999-02-30"); }),
            "date/time field value out of range: \"1999-02-30\"");
  EXPECT_EQ(error_of([] { parse_date("2024-13-01"); }),
            "date/time field value out of range: \"2024-13-01\"");
  EXPECT_EQ(error_of([] { parse_date("0000-01-01"); }),
            "date/time field value out of range: \"0000-01-01\"");
  EXPECT_EQ(error_of([] { parse_date("hello"); }), "invalid input syntax for type date: \"hello\"");
  EXPECT_EQ(error_of([] { parse_date("2024-05"); }),
            "invalid input syntax for type date: \"2024-05\"");
  EXPECT_EQ(error_of([] { parse_date("Foo 7, 2024"); }),
            "invalid input syntax for type date: \"Foo 7, 2024\"");
}

TEST(TimestampInputTest, AcceptsPostgresForms) {
  EXPECT_EQ(timestamp_text("2024-05-07T10:11:12.1234567"), "2024-05-07 10:11:12.123457");
  EXPECT_EQ(timestamp_text("20240507 10:11"), "2024-05-07 10:11:00");
  EXPECT_EQ(timestamp_text("2024-05-07 24:00:00"), "2024-05-08 00:00:00");
  EXPECT_EQ(timestamp_text("May 7, 2024 01:02:03"), "2024-05-07 01:02:03");
  EXPECT_EQ(timestamp_text("2024-05-07"), "2024-05-07 00:00:00");
  EXPECT_EQ(error_of([] { parse_timestamp("2024-05-07 25:00"); }),
            "date/time field value out of range: \"2024-05-07 25:00\"");
  EXPECT_EQ(error_of([] { parse_timestamp("2024-05-07 10:6x"); }),
            "invalid input syntax for type timestamp: \"2024-05-07 10:6x\"");
}

TEST(IntervalTest, ParsesFullLiterals) {
  EXPECT_EQ(interval_text("1 year 2 months 3 days 04:05:06"), "1 year 2 mons 3 days 04:05:06");
  EXPECT_EQ(interval_text("-1 day"), "-1 days");
  EXPECT_EQ(interval_text("2 hours 30 minutes"), "02:30:00");
  EXPECT_EQ(interval_text("1-2"), "1 year 2 mons");
  EXPECT_EQ(interval_text("-1-2"), "-1 years -2 mons");
  EXPECT_EQ(interval_text("1-2 3 4:05:06"), "1 year 2 mons 3 days 04:05:06");
  EXPECT_EQ(interval_text("1.5 hours"), "01:30:00");
  EXPECT_EQ(interval_text("1.5 months"), "1 mon 15 days");
  EXPECT_EQ(interval_text("1.5 years"), "1 year 6 mons");
  EXPECT_EQ(interval_text("1.5 weeks"), "10 days 12:00:00");
  EXPECT_EQ(interval_text("@ 1 day ago"), "-1 days");
  EXPECT_EQ(interval_text("1 day 2 hours ago"), "-1 days -02:00:00");
  EXPECT_EQ(interval_text("3 mins 4 secs"), "00:03:04");
  EXPECT_EQ(interval_text("100 ms"), "00:00:00.1");
  EXPECT_EQ(interval_text("04:05:06.789"), "04:05:06.789");
  EXPECT_EQ(interval_text("-04:05:06"), "-04:05:06");
  EXPECT_EQ(interval_text("1 day -04:05:06"), "1 day -04:05:06");
  EXPECT_EQ(interval_text("-1 day 01:00:00"), "-1 days +01:00:00");
  EXPECT_EQ(interval_text("5"), "00:00:05");
  EXPECT_EQ(interval_text("1 decade 1 century"), "110 years");
  EXPECT_EQ(interval_text("1y 2mon 3d 4h 5m 6s"), "1 year 2 mons 3 days 04:05:06");
  EXPECT_EQ(interval_text("100:00:00"), "100:00:00");
  EXPECT_EQ(error_of([] { parse_interval("1 fortnight"); }),
            "invalid input syntax for type interval: \"1 fortnight\"");
  EXPECT_EQ(error_of([] { parse_interval(""); }), "invalid input syntax for type interval: \"\"");
  EXPECT_EQ(error_of([] { parse_interval("3000000000 days"); }),
            "interval field value out of range: \"3000000000 days\"");
}

TEST(IntervalTest, MultipliesAndDividesAsPostgres) {
  EXPECT_EQ(format_interval(multiply_interval({0, 10, 0}, 1.5)), "15 days");
  EXPECT_EQ(format_interval(multiply_interval({1, 0, 0}, 0.5)), "15 days");
  EXPECT_EQ(format_interval(multiply_interval({0, 1, 0}, 0.5)), "12:00:00");
  EXPECT_EQ(format_interval(multiply_interval({0, 0, kMicrosPerHour}, -2)), "-02:00:00");
  EXPECT_EQ(format_interval(divide_interval({1, 0, 0}, 3)), "10 days");
  EXPECT_EQ(format_interval(divide_interval({0, 1, 0}, 3)), "08:00:00");
  EXPECT_EQ(error_of([] { divide_interval({1, 0, 0}, 0); }), "division by zero");
  EXPECT_EQ(error_of([] { multiply_interval({1000, 0, 0}, 1e10); }), "interval out of range");
}

TEST(IntervalTest, SubtractsTimestamps) {
  int64_t a = parse_timestamp("2024-03-01 00:00:00"), b = parse_timestamp("2024-01-01 12:00");
  EXPECT_EQ(format_interval(subtract_timestamps(a, b)), "59 days 12:00:00");
  EXPECT_EQ(format_interval(subtract_timestamps(b, a)), "-59 days -12:00:00");
  EXPECT_EQ(error_of([] { add_intervals({2147483647, 0, 0}, {1, 0, 0}, false); }),
            "interval out of range");
}

TEST(DatePartTest, ParsesUnitNames) {
  EXPECT_EQ(parse_date_part("Milliseconds"), DatePart::kMilliseconds);
  EXPECT_EQ(parse_date_part("mins"), DatePart::kMinute);
  EXPECT_EQ(parse_date_part("ISODOW"), DatePart::kIsoDayOfWeek);
  EXPECT_EQ(parse_date_part("centuries"), DatePart::kCentury);
  EXPECT_FALSE(parse_date_part("fortnight").has_value());
  EXPECT_FALSE(extract_type(DatePart::kHour, TypeId::kDate).has_value());
  EXPECT_FALSE(extract_type(DatePart::kDayOfWeek, TypeId::kInterval).has_value());
  EXPECT_EQ(extract_type(DatePart::kSecond, TypeId::kTimestamp)->scale, 6);
  EXPECT_EQ(extract_type(DatePart::kMilliseconds, TypeId::kInterval)->scale, 3);
}

TEST(DatePartTest, ExtractsDateFields) {
  int32_t saturday = parse_date("2005-01-01");
  EXPECT_EQ(extract_from_date(DatePart::kWeek, saturday), 53);
  EXPECT_EQ(extract_from_date(DatePart::kIsoYear, saturday), 2004);
  EXPECT_EQ(extract_from_date(DatePart::kDayOfWeek, saturday), 6);
  EXPECT_EQ(extract_from_date(DatePart::kIsoDayOfWeek, saturday), 6);
  int32_t sunday = parse_date("2005-01-02");
  EXPECT_EQ(extract_from_date(DatePart::kDayOfWeek, sunday), 0);
  EXPECT_EQ(extract_from_date(DatePart::kIsoDayOfWeek, sunday), 7);
  int32_t day = parse_date("2001-02-03");
  EXPECT_EQ(extract_from_date(DatePart::kCentury, day), 21);
  EXPECT_EQ(extract_from_date(DatePart::kDecade, day), 200);
  EXPECT_EQ(extract_from_date(DatePart::kMillennium, day), 3);
  EXPECT_EQ(extract_from_date(DatePart::kJulian, day), 2451944);
  EXPECT_EQ(extract_from_date(DatePart::kEpoch, day), 981158400);
  EXPECT_EQ(extract_from_date(DatePart::kDayOfYear, parse_date("2024-12-31")), 366);
  EXPECT_EQ(extract_from_date(DatePart::kCentury, parse_date("2000-12-31")), 20);
  int32_t one_bc = parse_date("0001-01-01 BC");
  EXPECT_EQ(extract_from_date(DatePart::kYear, one_bc), -1);
  EXPECT_EQ(extract_from_date(DatePart::kCentury, one_bc), -1);
  EXPECT_EQ(extract_from_date(DatePart::kDecade, one_bc), 0);
  EXPECT_EQ(extract_from_date(DatePart::kDecade, parse_date("0005-01-01 BC")), -1);
}

TEST(DatePartTest, ExtractsTimestampAndIntervalFields) {
  int64_t ts = parse_timestamp("2001-02-03 04:05:06.5");
  EXPECT_EQ(extract_from_timestamp(DatePart::kSecond, ts), 6500000);  // scale 6
  EXPECT_EQ(extract_from_timestamp(DatePart::kMilliseconds, ts), 6500000);  // scale 3
  EXPECT_EQ(extract_from_timestamp(DatePart::kEpoch, ts), 981173106500000);
  EXPECT_EQ(extract_from_timestamp(DatePart::kHour, ts), 4);
  EXPECT_EQ(extract_from_timestamp(DatePart::kQuarter, ts), 1);
  int64_t before = parse_timestamp("1969-12-31 23:59:59.5");
  EXPECT_EQ(extract_from_timestamp(DatePart::kSecond, before), 59500000);
  EXPECT_EQ(extract_from_timestamp(DatePart::kEpoch, before), -500000);
  Interval interval = parse_interval("1 year 2 months 3 days 04:05:06.5");
  EXPECT_EQ(extract_from_interval(DatePart::kYear, interval), 1);
  EXPECT_EQ(extract_from_interval(DatePart::kMonth, interval), 2);
  EXPECT_EQ(extract_from_interval(DatePart::kDay, interval), 3);
  EXPECT_EQ(extract_from_interval(DatePart::kMinute, interval), 5);
  EXPECT_EQ(extract_from_interval(DatePart::kSecond, interval), 6500000);
  EXPECT_EQ(extract_from_interval(DatePart::kEpoch, interval), int128_t{37015506500000});
  EXPECT_EQ(extract_from_interval(DatePart::kHour, parse_interval("-100:30:00")), -100);
}

}  // namespace
}  // namespace floe
