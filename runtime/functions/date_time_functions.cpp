#include "runtime/functions/date_time_functions.h"

#include <cctype>
#include <cmath>
#include <cstdio>
#include <limits>
#include <string>

#include "runtime/function_adapter.h"
#include "runtime/functions/date_time_format.h"
#include "runtime/functions/function_families.h"
#include "storage/date_time.h"
#include "storage/decimal.h"
#include "storage/error.h"

namespace floe {
namespace {

constexpr const char* kTimestampName = "timestamp without time zone";

// A timestamp split into calendar fields (astronomical year: 0 is 1 BC).
struct Fields {
  int64_t year = 0, month = 1, day = 1, hour = 0, minute = 0, second = 0, micros = 0;
};

Fields split(int64_t timestamp) {
  Fields f;
  int64_t days = floor_div(timestamp, kMicrosPerDay);
  int64_t time = timestamp - days * kMicrosPerDay;
  int32_t year;
  uint32_t month, day;
  civil_from_days(static_cast<int32_t>(days), year, month, day);
  f.year = year, f.month = month, f.day = day;
  f.hour = time / kMicrosPerHour;
  f.minute = time / kMicrosPerMinute % 60;
  f.second = time / kMicrosPerSecond % 60;
  f.micros = time % kMicrosPerSecond;
  return f;
}

int64_t join(const Fields& f) {
  int64_t days = days_from_civil(static_cast<int32_t>(f.year), static_cast<uint32_t>(f.month),
                                 static_cast<uint32_t>(f.day));
  return days * kMicrosPerDay + f.hour * kMicrosPerHour + f.minute * kMicrosPerMinute +
         f.second * kMicrosPerSecond + f.micros;
}

// date_trunc's units: the fields down from millennium; PostgreSQL does not recognize the
// others (dow, epoch, ...) here.
DatePart trunc_unit(std::string_view field, const char* type) {
  std::string name;
  for (char c : field) name += static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  auto part = parse_date_part(name);
  switch (part.value_or(DatePart::kEpoch)) {
    case DatePart::kJulian:
    case DatePart::kIsoYear:
    case DatePart::kDayOfWeek:
    case DatePart::kIsoDayOfWeek:
    case DatePart::kDayOfYear:
    case DatePart::kEpoch:
      throw Error("unit \"" + name + "\" not recognized for type " + type);
    default:
      return *part;
  }
}

[[noreturn]] void date_out_of_range(int64_t year, int64_t month, int64_t day) {
  char buffer[96];
  std::snprintf(buffer, sizeof buffer, "date field value out of range: %lld-%02lld-%02lld",
                static_cast<long long>(year), static_cast<long long>(month),
                static_cast<long long>(day));
  throw Error(buffer);
}

// The astronomical year of a year as written, negative for BC (PostgreSQL's make_date).
int64_t valid_date_fields(int64_t year, int64_t month, int64_t day) {
  int64_t astronomical = year < 0 ? year + 1 : year;
  if (year == 0 || year > 5874897 || year < -4713 || month < 1 || month > 12 || day < 1 ||
      day > days_in_month(static_cast<int32_t>(astronomical), static_cast<uint32_t>(month)))
    date_out_of_range(year, month, day);
  return astronomical;
}

}  // namespace

// PostgreSQL's timestamp_trunc: each field falls through to the smaller ones.
int64_t date_trunc_timestamp(std::string_view field, int64_t micros) {
  DatePart part = trunc_unit(field, kTimestampName);
  Fields f = split(micros);
  switch (part) {
    case DatePart::kWeek: {  // the Monday of the ISO week
      int64_t days = floor_div(micros, kMicrosPerDay);
      int64_t iso_weekday = (days % 7 + 7 + 3) % 7;  // Monday = 0
      return (days - iso_weekday) * kMicrosPerDay;
    }
    case DatePart::kMillennium:
      f.year = f.year > 0 ? (f.year + 999) / 1000 * 1000 - 999
                          : -((999 - (f.year - 1)) / 1000) * 1000 + 1;
      [[fallthrough]];
    case DatePart::kCentury:
      f.year = f.year > 0 ? (f.year + 99) / 100 * 100 - 99 : -((99 - (f.year - 1)) / 100) * 100 + 1;
      [[fallthrough]];
    case DatePart::kDecade:
      if (part == DatePart::kDecade)
        f.year = f.year > 0 ? f.year / 10 * 10 : -((8 - (f.year - 1)) / 10) * 10;
      [[fallthrough]];
    case DatePart::kYear:
      f.month = 1;
      [[fallthrough]];
    case DatePart::kQuarter:
      f.month = 3 * ((f.month - 1) / 3) + 1;
      [[fallthrough]];
    case DatePart::kMonth:
      f.day = 1;
      [[fallthrough]];
    case DatePart::kDay:
      f.hour = 0;
      [[fallthrough]];
    case DatePart::kHour:
      f.minute = 0;
      [[fallthrough]];
    case DatePart::kMinute:
      f.second = 0;
      [[fallthrough]];
    case DatePart::kSecond:
      f.micros = 0;
      break;
    case DatePart::kMilliseconds:
      f.micros = f.micros / 1000 * 1000;
      break;
    default:
      break;
  }
  return join(f);
}

// PostgreSQL's interval_trunc, on the fields of interval2tm.
Interval date_trunc_interval(std::string_view field, const Interval& interval) {
  DatePart part = trunc_unit(field, "interval");
  int64_t years = interval.months / 12, months = interval.months % 12, days = interval.days;
  int64_t hours = interval.micros / kMicrosPerHour;
  int64_t minutes = interval.micros / kMicrosPerMinute % 60;
  int64_t seconds = interval.micros / kMicrosPerSecond % 60;
  int64_t micros = interval.micros % kMicrosPerSecond;
  switch (part) {
    case DatePart::kWeek:
      throw Error("unit \"week\" not supported for type interval");
    case DatePart::kMillennium:
      years = years / 1000 * 1000;
      [[fallthrough]];
    case DatePart::kCentury:
      years = years / 100 * 100;
      [[fallthrough]];
    case DatePart::kDecade:
      years = years / 10 * 10;
      [[fallthrough]];
    case DatePart::kYear:
      months = 0;
      [[fallthrough]];
    case DatePart::kQuarter:
      months = 3 * (months / 3);
      [[fallthrough]];
    case DatePart::kMonth:
      days = 0;
      [[fallthrough]];
    case DatePart::kDay:
      hours = 0;
      [[fallthrough]];
    case DatePart::kHour:
      minutes = 0;
      [[fallthrough]];
    case DatePart::kMinute:
      seconds = 0;
      [[fallthrough]];
    case DatePart::kSecond:
      micros = 0;
      break;
    case DatePart::kMilliseconds:
      micros = micros / 1000 * 1000;
      break;
    default:
      break;
  }
  return {static_cast<int32_t>(years * 12 + months), static_cast<int32_t>(days),
          hours * kMicrosPerHour + minutes * kMicrosPerMinute + seconds * kMicrosPerSecond +
              micros};
}

// PostgreSQL's timestamp_age.
Interval age(int64_t a, int64_t b) {
  Fields x = split(a), y = split(b);
  bool negative = a < b;
  int sign = negative ? -1 : 1;
  int64_t micros = sign * (x.micros - y.micros), second = sign * (x.second - y.second);
  int64_t minute = sign * (x.minute - y.minute), hour = sign * (x.hour - y.hour);
  int64_t day = sign * (x.day - y.day), month = sign * (x.month - y.month);
  int64_t year = sign * (x.year - y.year);
  for (; micros < 0; micros += kMicrosPerSecond) --second;
  for (; second < 0; second += 60) --minute;
  for (; minute < 0; minute += 60) --hour;
  for (; hour < 0; hour += 24) --day;
  const Fields& borrow = negative ? x : y;  // days of the earlier timestamp's month
  for (; day < 0; --month)
    day += days_in_month(static_cast<int32_t>(borrow.year), static_cast<uint32_t>(borrow.month));
  for (; month < 0; month += 12) --year;
  int128_t months = static_cast<int128_t>(sign) * (year * 12 + month);
  if (months > std::numeric_limits<int32_t>::max() || months < std::numeric_limits<int32_t>::min())
    throw Error("interval out of range");
  return {static_cast<int32_t>(months), static_cast<int32_t>(sign * day),
          sign * (hour * kMicrosPerHour + minute * kMicrosPerMinute + second * kMicrosPerSecond +
                  micros)};
}

int32_t make_date(int64_t year, int64_t month, int64_t day) {
  int64_t astronomical = valid_date_fields(year, month, day);
  return days_from_civil(static_cast<int32_t>(astronomical), static_cast<uint32_t>(month),
                         static_cast<uint32_t>(day));
}

int64_t make_timestamp(int64_t year, int64_t month, int64_t day, int64_t hour, int64_t minute,
                       double second) {
  int64_t astronomical = valid_date_fields(year, month, day);
  if (astronomical > 294276) throw Error("timestamp out of range");
  // PostgreSQL's float_time_overflows: 24:00:00 is the latest time.
  double micros_of_second = std::rint(second * 1e6);
  if (hour < 0 || hour > 24 || minute < 0 || minute > 59 || !(micros_of_second >= 0) ||
      micros_of_second > 60e6 ||
      hour * kMicrosPerHour + minute * kMicrosPerMinute + micros_of_second > kMicrosPerDay) {
    char buffer[96];
    std::snprintf(buffer, sizeof buffer, "time field value out of range: %lld:%02lld:%02g",
                  static_cast<long long>(hour), static_cast<long long>(minute), second);
    throw Error(buffer);
  }
  Fields f{astronomical, month, day, hour, minute, 0, static_cast<int64_t>(micros_of_second)};
  return join(f);
}

Interval make_interval(int64_t years, int64_t months, int64_t weeks, int64_t days, int64_t hours,
                       int64_t minutes, double seconds) {
  int128_t total_months = static_cast<int128_t>(years) * 12 + months;
  int128_t total_days = static_cast<int128_t>(weeks) * 7 + days;
  double second_micros = std::rint(seconds * 1e6);
  double micros = static_cast<double>(hours) * kMicrosPerHour +
                  static_cast<double>(minutes) * kMicrosPerMinute + second_micros;
  if (total_months > std::numeric_limits<int32_t>::max() ||
      total_months < std::numeric_limits<int32_t>::min() ||
      total_days > std::numeric_limits<int32_t>::max() ||
      total_days < std::numeric_limits<int32_t>::min() || !std::isfinite(micros) ||
      std::fabs(micros) >= 9.2e18)
    throw Error("interval out of range");
  return {static_cast<int32_t>(total_months), static_cast<int32_t>(total_days),
          static_cast<int64_t>(hours) * kMicrosPerHour + minutes * kMicrosPerMinute +
              static_cast<int64_t>(second_micros)};
}

namespace {

// The registry's shapes of the functions above: dates cross as int64_t, strings are built on
// the worker's heap.
int64_t make_date_function(int64_t year, int64_t month, int64_t day) {
  return make_date(year, month, day);
}

int64_t to_date_function(std::string_view text, std::string_view format) {
  return to_date(text, format);
}

StringRef to_char_function(StringHeap& heap, int64_t micros, std::string_view format) {
  return heap.store(to_char(micros, format));
}

// to_timestamp(double precision): seconds since 1970-01-01 00:00:00.
int64_t to_timestamp_from_epoch(double seconds) {
  double micros = std::rint(seconds * 1e6);
  if (!std::isfinite(micros) || micros < -2.1e17 || micros > 9.2e18)
    throw Error("timestamp out of range");
  return static_cast<int64_t>(micros);
}

}  // namespace

void register_date_time_functions(FunctionRegistry& r) {
  constexpr TypeId kText = TypeId::kText, kTimestamp = TypeId::kTimestamp;
  constexpr TypeId kInterval = TypeId::kInterval, kInteger = TypeId::kInteger;
  constexpr TypeId kDouble = TypeId::kDouble;
  ResultTypeRule timestamp = returns(SqlType::timestamp());
  ResultTypeRule interval = returns(SqlType::interval());
  ResultTypeRule date = returns(SqlType::date());
  r.add("date_trunc", {kText, kTimestamp}, timestamp, typed_function<date_trunc_timestamp>);
  r.add("date_trunc", {kText, kInterval}, interval, typed_function<date_trunc_interval>);
  r.add("age", {kTimestamp, kTimestamp}, interval, typed_function<age>);
  r.add("make_date", {kInteger, kInteger, kInteger}, date, typed_function<make_date_function>);
  r.add("make_timestamp", {kInteger, kInteger, kInteger, kInteger, kInteger, kDouble}, timestamp,
        typed_function<make_timestamp>);
  r.add("make_interval", {kInteger, kInteger, kInteger, kInteger, kInteger, kInteger, kDouble},
        interval, typed_function<make_interval>);
  r.add("to_char", {kTimestamp, kText}, returns(SqlType::text()),
        typed_function<to_char_function>);
  r.add("to_date", {kText, kText}, date, typed_function<to_date_function>);
  r.add("to_timestamp", {kText, kText}, timestamp, typed_function<to_timestamp>);
  r.add("to_timestamp", {kDouble}, timestamp, typed_function<to_timestamp_from_epoch>);
}

}  // namespace floe
