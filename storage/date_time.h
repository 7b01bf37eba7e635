// DATE (int32 days since 1970-01-01) and TIMESTAMP (int64 microseconds since the epoch),
// proleptic Gregorian calendar as in PostgreSQL. Years are astronomical internally (0 is
// 1 BC); text shows them with a BC suffix as PostgreSQL does.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "storage/date_part.h"
#include "storage/interval.h"

namespace floe {

constexpr int64_t kMicrosPerSecond = 1000000;
constexpr int64_t kMicrosPerMinute = 60 * kMicrosPerSecond;
constexpr int64_t kMicrosPerHour = 60 * kMicrosPerMinute;
constexpr int64_t kMicrosPerDay = 24 * kMicrosPerHour;

int32_t days_from_civil(int32_t year, uint32_t month, uint32_t day);
void civil_from_days(int32_t days, int32_t& year, uint32_t& month, uint32_t& day);
bool is_leap_year(int32_t year);
uint32_t days_in_month(int32_t year, uint32_t month);

// Rounds toward negative infinity (timestamps before 1970 belong to the earlier day).
inline int64_t floor_div(int64_t a, int64_t b) {
  return a / b - (a % b != 0 && (a < 0) != (b < 0));
}

// Input accepted for DATE and TIMESTAMP, as with PostgreSQL's default DateStyle (ISO, MDY):
// ISO "2024-05-07" (also with / or . separators), compact "20240507", month-first
// "05/07/2024", month names ("May 7, 2024", "7 May 2024", "2024-May-07"), an optional
// "BC"/"AD", "epoch"; a timestamp's time follows after a blank or "T" as
// "HH:MM[:SS[.ffffff]]" (fractions rounded to microseconds). A date ignores a time part.
// Errors are PostgreSQL's: "invalid input syntax for type date: ..." or, for fields that do
// not exist such as 1999-02-30 or 25:00, "date/time field value out of range: ...".
enum class DateParseResult : uint8_t { kOk, kSyntax, kOutOfRange };
DateParseResult parse_date(std::string_view text, int32_t& days);
DateParseResult parse_timestamp(std::string_view text, int64_t& micros);
std::optional<int32_t> try_parse_date(std::string_view text);
std::optional<int64_t> try_parse_timestamp(std::string_view text);
int32_t parse_date(std::string_view text);         // throws floe::Error
int64_t parse_timestamp(std::string_view text);    // throws floe::Error

std::string format_date(int32_t days);
std::string format_timestamp(int64_t micros);

// date + interval -> timestamp (PostgreSQL), month arithmetic clamps the day of month.
int64_t add_interval_to_timestamp(int64_t micros, const Interval& interval);
// date +/- interval with no time part stays a date (used when the interval has no micros).
int32_t add_interval_to_date(int32_t days, const Interval& interval);

// The wall clock as a timestamp (UTC; floe has no time zones). Read once per statement.
int64_t current_timestamp_micros();

}  // namespace floe
