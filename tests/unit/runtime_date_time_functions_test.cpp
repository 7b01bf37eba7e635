// date_trunc, age, make_date, make_timestamp, make_interval, to_char, to_date and
// to_timestamp (runtime/date_time_functions.h, runtime/date_time_format.h); expected values
// from PostgreSQL 15.
#include <gtest/gtest.h>

#include "runtime/functions/date_time_format.h"
#include "runtime/functions/date_time_functions.h"
#include "storage/date_time.h"
#include "storage/error.h"
#include "tests/unit/error_message.h"

namespace floe {
namespace {

int64_t ts(std::string_view text) { return parse_timestamp(text); }

std::string trunc(std::string_view field, std::string_view text) {
  return format_timestamp(date_trunc_timestamp(field, ts(text)));
}

using floe::testing::error_of;

TEST(DateTruncTest, Timestamps) {
  const char* t = "2024-05-17 10:11:12.345678";
  EXPECT_EQ(trunc("microseconds", t), "2024-05-17 10:11:12.345678");
  EXPECT_EQ(trunc("milliseconds", t), "2024-05-17 10:11:12.345");
  EXPECT_EQ(trunc("second", t), "2024-05-17 10:11:12");
  EXPECT_EQ(trunc("minute", t), "2024-05-17 10:11:00");
  EXPECT_EQ(trunc("HOUR", t), "2024-05-17 10:00:00");
  EXPECT_EQ(trunc("day", t), "2024-05-17 00:00:00");
  EXPECT_EQ(trunc("week", t), "2024-05-13 00:00:00");
  EXPECT_EQ(trunc("month", t), "2024-05-01 00:00:00");
  EXPECT_EQ(trunc("quarter", t), "2024-04-01 00:00:00");
  EXPECT_EQ(trunc("year", t), "2024-01-01 00:00:00");
  EXPECT_EQ(trunc("decade", t), "2020-01-01 00:00:00");
  EXPECT_EQ(trunc("century", t), "2001-01-01 00:00:00");
  EXPECT_EQ(trunc("millennium", t), "2001-01-01 00:00:00");
  EXPECT_EQ(trunc("century", "0050-06-01 BC"), "0100-01-01 00:00:00 BC");
  EXPECT_EQ(trunc("day", "1969-12-31 23:59:59"), "1969-12-31 00:00:00");
  EXPECT_EQ(error_of([] { date_trunc_timestamp("fortnight", 0); }),
            "unit \"fortnight\" not recognized for type timestamp without time zone");
  EXPECT_EQ(error_of([] { date_trunc_timestamp("dow", 0); }),
            "unit \"dow\" not recognized for type timestamp without time zone");
}

TEST(DateTruncTest, Intervals) {
  auto trunc_interval = [](std::string_view field, std::string_view text) {
    return format_interval(date_trunc_interval(field, parse_interval(text)));
  };
  EXPECT_EQ(trunc_interval("hour", "1 day 04:05:06"), "1 day 04:00:00");
  EXPECT_EQ(trunc_interval("year", "1 year 2 mons 3 days"), "1 year");
  EXPECT_EQ(trunc_interval("quarter", "5 mons 3 days"), "3 mons");
  EXPECT_EQ(trunc_interval("minute", "-04:05:06"), "-04:05:00");
  EXPECT_EQ(error_of([] { date_trunc_interval("week", Interval{}); }),
            "unit \"week\" not supported for type interval");
}

TEST(AgeTest, SymbolicDifference) {
  EXPECT_EQ(format_interval(age(ts("2001-04-10"), ts("1957-06-13"))), "43 years 9 mons 27 days");
  EXPECT_EQ(format_interval(age(ts("1957-06-13"), ts("2001-04-10"))),
            "-43 years -9 mons -27 days");
  EXPECT_EQ(format_interval(age(ts("2024-03-01 01:00"), ts("2024-02-28 12:00"))),
            "1 day 13:00:00");
  EXPECT_EQ(format_interval(age(ts("2024-05-07"), ts("2024-05-07"))), "00:00:00");
}

TEST(MakeTest, DatesTimestampsIntervals) {
  EXPECT_EQ(format_date(make_date(2013, 7, 15)), "2013-07-15");
  EXPECT_EQ(format_date(make_date(-44, 3, 15)), "0044-03-15 BC");
  EXPECT_EQ(error_of([] { make_date(2023, 2, 30); }), "date field value out of range: 2023-02-30");
  EXPECT_EQ(error_of([] { make_date(0, 1, 1); }), "date field value out of range: 0-01-01");
  EXPECT_EQ(format_timestamp(make_timestamp(2013, 7, 15, 8, 15, 23.5)), "2013-07-15 08:15:23.5");
  EXPECT_EQ(error_of([] { make_timestamp(2013, 7, 15, 25, 0, 0); }),
            "time field value out of range: 25:00:00");
  EXPECT_EQ(format_interval(make_interval(0, 0, 0, 10, 0, 0, 0)), "10 days");
  EXPECT_EQ(format_interval(make_interval(1, 2, 3, 4, 5, 6, 7.5)),
            "1 year 2 mons 25 days 05:06:07.5");
  EXPECT_EQ(error_of([] { make_interval(300000000, 0, 0, 0, 0, 0, 0); }), "interval out of range");
}

TEST(ToCharTest, CommonPatterns) {
  int64_t t = ts("2024-05-07 13:04:05.123456");
  EXPECT_EQ(to_char(t, "YYYY-MM-DD HH24:MI:SS.US"), "2024-05-07 13:04:05.123456");
  EXPECT_EQ(to_char(t, "Day, DD Month YYYY"), "Tuesday  , 07 May       2024");
  EXPECT_EQ(to_char(t, "FMDay, FMDD FMMonth YYYY"), "Tuesday, 7 May 2024");
  EXPECT_EQ(to_char(t, "HH12:MI AM"), "01:04 PM");
  EXPECT_EQ(to_char(t, "hh:mi pm"), "01:04 pm");
  EXPECT_EQ(to_char(t, "Q WW IW D ID DDD"), "2 19 19 3 2 128");
  EXPECT_EQ(to_char(t, "DDth Mon YY"), "07th May 24");
  EXPECT_EQ(to_char(t, "MS"), "123");
  EXPECT_EQ(to_char(t, "\"Year\" YYYY"), "Year 2024");
  EXPECT_EQ(to_char(t, "Dy DY dy MON mon MONTH"), "Tue TUE tue MAY may MAY      ");
  EXPECT_EQ(to_char(t, "Y,YYY YYY YY Y CC"), "2,024 024 24 4 21");
  EXPECT_EQ(to_char(ts("2024-05-01"), "FMDDth FMDDTH"), "1st 1ST");
  EXPECT_EQ(to_char(ts("2024-05-22"), "FMDDth"), "22nd");
  EXPECT_EQ(to_char(ts("2024-05-13"), "FMDDth"), "13th");
  EXPECT_EQ(to_char(ts("0044-03-15 BC"), "YYYY BC"), "0044 BC");
  EXPECT_EQ(to_char(ts("2024-05-07 00:30"), "HH12 AM"), "12 AM");
}

TEST(ToDateTest, ParsesWithTemplates) {
  EXPECT_EQ(format_date(to_date("05 Dec 2000", "DD Mon YYYY")), "2000-12-05");
  EXPECT_EQ(format_date(to_date("20240507", "YYYYMMDD")), "2024-05-07");
  EXPECT_EQ(format_date(to_date("24-05-07", "YY-MM-DD")), "2024-05-07");
  EXPECT_EQ(format_date(to_date("December 5, 2000", "Month DD, YYYY")), "2000-12-05");
  EXPECT_EQ(format_date(to_date("2024", "YYYY")), "2024-01-01");
  EXPECT_EQ(format_date(to_date("2024 128", "YYYY DDD")), "2024-05-07");
  EXPECT_EQ(format_timestamp(to_timestamp("05 Dec 2000 10:11:12.5 PM",
                                          "DD Mon YYYY HH12:MI:SS.MS PM")),
            "2000-12-05 22:11:12.5");
  EXPECT_EQ(format_timestamp(to_timestamp("2024-05-07 13:04", "YYYY-MM-DD HH24:MI")),
            "2024-05-07 13:04:00");
  EXPECT_EQ(error_of([] { to_date("2024-02-30", "YYYY-MM-DD"); }),
            "date/time field value out of range: \"2024-02-30\"");
  EXPECT_EQ(error_of([] { to_date("abcd-01-01", "YYYY-MM-DD"); }),
            "invalid value \"abcd\" for \"YYYY\"");
  EXPECT_EQ(error_of([] { to_timestamp("13:00 PM", "HH12:MI PM"); }),
            "hour \"13\" is invalid for the 12-hour clock");
}

}  // namespace
}  // namespace floe
