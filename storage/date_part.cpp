#include "storage/date_part.h"

#include <cctype>
#include <string>

#include "storage/date_time.h"

namespace floe {
namespace {

struct UnitName {
  const char* name;
  DatePart part;
};

// PostgreSQL's unit table (datetime.c deltatbl, with the reserved words of datetktbl that
// EXTRACT accepts). Names are compared after cutting them to 10 characters, as PostgreSQL's
// tokens are, so "milliseconds" matches "millisecon".
constexpr UnitName kUnits[] = {
    {"us", DatePart::kMicroseconds},        {"usec", DatePart::kMicroseconds},
    {"usecs", DatePart::kMicroseconds},     {"useconds", DatePart::kMicroseconds},
    {"microsecon", DatePart::kMicroseconds},
    {"ms", DatePart::kMilliseconds},        {"msec", DatePart::kMilliseconds},
    {"msecs", DatePart::kMilliseconds},     {"mseconds", DatePart::kMilliseconds},
    {"millisecon", DatePart::kMilliseconds}, {"s", DatePart::kSecond},
    {"sec", DatePart::kSecond},             {"secs", DatePart::kSecond},
    {"second", DatePart::kSecond},          {"seconds", DatePart::kSecond},
    {"m", DatePart::kMinute},               {"min", DatePart::kMinute},
    {"mins", DatePart::kMinute},            {"minute", DatePart::kMinute},
    {"minutes", DatePart::kMinute},         {"h", DatePart::kHour},
    {"hr", DatePart::kHour},                {"hrs", DatePart::kHour},
    {"hour", DatePart::kHour},              {"hours", DatePart::kHour},
    {"d", DatePart::kDay},                  {"day", DatePart::kDay},
    {"days", DatePart::kDay},               {"w", DatePart::kWeek},
    {"week", DatePart::kWeek},              {"weeks", DatePart::kWeek},
    {"mon", DatePart::kMonth},              {"mons", DatePart::kMonth},
    {"month", DatePart::kMonth},            {"months", DatePart::kMonth},
    {"qtr", DatePart::kQuarter},            {"quarter", DatePart::kQuarter},
    {"y", DatePart::kYear},                 {"yr", DatePart::kYear},
    {"yrs", DatePart::kYear},               {"year", DatePart::kYear},
    {"years", DatePart::kYear},             {"dec", DatePart::kDecade},
    {"decs", DatePart::kDecade},            {"decade", DatePart::kDecade},
    {"decades", DatePart::kDecade},         {"c", DatePart::kCentury},
    {"cent", DatePart::kCentury},           {"century", DatePart::kCentury},
    {"centuries", DatePart::kCentury},      {"mil", DatePart::kMillennium},
    {"mils", DatePart::kMillennium},        {"millennium", DatePart::kMillennium},
    {"millennia", DatePart::kMillennium},   {"j", DatePart::kJulian},
    {"jd", DatePart::kJulian},              {"julian", DatePart::kJulian},
    {"isoyear", DatePart::kIsoYear},        {"dow", DatePart::kDayOfWeek},
    {"isodow", DatePart::kIsoDayOfWeek},    {"doy", DatePart::kDayOfYear},
    {"epoch", DatePart::kEpoch},
};

// Julian day number of 1970-01-01.
constexpr int64_t kUnixEpochJulianDay = 2440588;

// The ISO 8601 week-numbering year and week of a day (weeks start on Monday; week 1 holds
// the year's first Thursday).
void iso_week(int32_t days, int32_t& iso_year, int64_t& week) {
  int64_t iso_weekday = ((static_cast<int64_t>(days) % 7 + 7 + 3) % 7) + 1;  // 1970-01-01: Thu
  int32_t thursday = static_cast<int32_t>(days - iso_weekday + 4);
  uint32_t month, day;
  civil_from_days(thursday, iso_year, month, day);
  week = (thursday - days_from_civil(iso_year, 1, 1)) / 7 + 1;
}

// Year as PostgreSQL shows it: there is no year 0, 1 BC is -1.
int64_t shown_year(int64_t astronomical) { return astronomical > 0 ? astronomical : astronomical - 1; }

// Fields of a day; nullopt-free: every part that applies to a date.
int64_t date_field(DatePart part, int32_t days) {
  int32_t year;
  uint32_t month, day;
  civil_from_days(days, year, month, day);
  switch (part) {
    case DatePart::kDay:
      return day;
    case DatePart::kMonth:
      return month;
    case DatePart::kQuarter:
      return (month - 1) / 3 + 1;
    case DatePart::kYear:
      return shown_year(year);
    case DatePart::kDecade:  // PostgreSQL: year / 10, with years before 1 AD shifted
      return year >= 0 ? year / 10 : -((8 - (year - 1)) / 10);
    case DatePart::kCentury:
      return year > 0 ? (year + 99) / 100 : -((99 - (year - 1)) / 100);
    case DatePart::kMillennium:
      return year > 0 ? (year + 999) / 1000 : -((999 - (year - 1)) / 1000);
    case DatePart::kJulian:
      return days + kUnixEpochJulianDay;
    case DatePart::kIsoYear:
    case DatePart::kWeek: {
      int32_t iso_year;
      int64_t week;
      iso_week(days, iso_year, week);
      return part == DatePart::kWeek ? week : shown_year(iso_year);
    }
    case DatePart::kDayOfWeek:
      return (static_cast<int64_t>(days) % 7 + 7 + 4) % 7;
    case DatePart::kIsoDayOfWeek:
      return (static_cast<int64_t>(days) % 7 + 7 + 3) % 7 + 1;
    case DatePart::kDayOfYear:
      return days - days_from_civil(year, 1, 1) + 1;
    case DatePart::kEpoch:
      return static_cast<int64_t>(days) * 86400;
    default:
      return 0;
  }
}

}  // namespace

std::optional<DatePart> parse_date_part(std::string_view name) {
  std::string lower;
  for (char c : name.substr(0, 10))
    lower += static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  for (const UnitName& unit : kUnits)
    if (lower == std::string_view(unit.name).substr(0, 10)) return unit.part;
  return std::nullopt;
}

const char* date_part_name(DatePart part) {
  static constexpr const char* kNames[] = {
      "microseconds", "milliseconds", "second",  "minute", "hour",   "day",    "week",
      "month",        "quarter",      "year",    "decade", "century", "millennium", "julian",
      "isoyear",      "dow",          "isodow",  "doy",    "epoch"};
  return kNames[static_cast<size_t>(part)];
}

std::optional<ExtractType> extract_type(DatePart part, TypeId source) {
  bool date = source == TypeId::kDate, interval = source == TypeId::kInterval;
  switch (part) {
    case DatePart::kMicroseconds:
    case DatePart::kMilliseconds:
    case DatePart::kSecond:
      if (date) return std::nullopt;
      return ExtractType{8, static_cast<uint8_t>(part == DatePart::kMicroseconds   ? 0
                                                 : part == DatePart::kMilliseconds ? 3
                                                                                   : 6)};
    case DatePart::kMinute:
      if (date) return std::nullopt;
      return ExtractType{2, 0};
    case DatePart::kHour:
      if (date) return std::nullopt;
      return ExtractType{static_cast<uint8_t>(interval ? 10 : 2), 0};
    case DatePart::kDay:
      return ExtractType{static_cast<uint8_t>(interval ? 10 : 2), 0};
    case DatePart::kMonth:
      return ExtractType{2, 0};
    case DatePart::kQuarter:
      return ExtractType{1, 0};
    case DatePart::kYear:
      return ExtractType{static_cast<uint8_t>(interval ? 9 : 7), 0};
    case DatePart::kDecade:
      return ExtractType{static_cast<uint8_t>(interval ? 8 : 6), 0};
    case DatePart::kCentury:
      return ExtractType{static_cast<uint8_t>(interval ? 7 : 5), 0};
    case DatePart::kMillennium:
      return ExtractType{static_cast<uint8_t>(interval ? 6 : 4), 0};
    case DatePart::kWeek:
    case DatePart::kIsoYear:
    case DatePart::kDayOfWeek:
    case DatePart::kIsoDayOfWeek:
    case DatePart::kDayOfYear:
    case DatePart::kJulian:
      if (interval) return std::nullopt;
      return ExtractType{static_cast<uint8_t>(part == DatePart::kJulian ? 10 : 7), 0};
    case DatePart::kEpoch:
      if (date) return ExtractType{15, 0};
      return ExtractType{static_cast<uint8_t>(interval ? 24 : 19), 6};
  }
  return std::nullopt;
}

int64_t extract_from_date(DatePart part, int32_t days) { return date_field(part, days); }

int64_t extract_from_timestamp(DatePart part, int64_t micros) {
  int64_t days = floor_div(micros, kMicrosPerDay);
  int64_t time_of_day = micros - days * kMicrosPerDay;
  switch (part) {
    case DatePart::kMicroseconds:
    case DatePart::kMilliseconds:
    case DatePart::kSecond:  // the same digits at scales 0, 3 and 6
      return time_of_day % kMicrosPerMinute;
    case DatePart::kMinute:
      return time_of_day / kMicrosPerMinute % 60;
    case DatePart::kHour:
      return time_of_day / kMicrosPerHour;
    case DatePart::kEpoch:
      return micros;
    default:
      return date_field(part, static_cast<int32_t>(days));
  }
}

int128_t extract_from_interval(DatePart part, const Interval& interval) {
  switch (part) {
    case DatePart::kMicroseconds:
    case DatePart::kMilliseconds:
    case DatePart::kSecond:
      return interval.micros % kMicrosPerMinute;
    case DatePart::kMinute:
      return interval.micros / kMicrosPerMinute % 60;
    case DatePart::kHour:
      return interval.micros / kMicrosPerHour;
    case DatePart::kDay:
      return interval.days;
    case DatePart::kMonth:
      return interval.months % 12;
    case DatePart::kQuarter:
      return interval.months % 12 / 3 + 1;
    case DatePart::kYear:
      return interval.months / 12;
    case DatePart::kDecade:
      return interval.months / 120;
    case DatePart::kCentury:
      return interval.months / 1200;
    case DatePart::kMillennium:
      return interval.months / 12000;
    case DatePart::kEpoch: {
      // PostgreSQL counts a year as 365.25 days and a month as 30 days here.
      int128_t seconds_of_days =
          (static_cast<int128_t>(interval.months / 12) * 1461 +
           static_cast<int128_t>(interval.months % 12) * 120 +
           static_cast<int128_t>(interval.days) * 4) *
          (86400 / 4);
      return seconds_of_days * kMicrosPerSecond + interval.micros;
    }
    default:
      return 0;
  }
}

}  // namespace floe
