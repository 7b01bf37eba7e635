// DATE (int32 days since 1970-01-01) and TIMESTAMP (int64 microseconds since the epoch),
// proleptic Gregorian calendar as in PostgreSQL.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "storage/interval.h"

namespace floe {

constexpr int64_t kMicrosPerSecond = 1000000;
constexpr int64_t kMicrosPerDay = 86400 * kMicrosPerSecond;

int32_t days_from_civil(int32_t year, uint32_t month, uint32_t day);
void civil_from_days(int32_t days, int32_t& year, uint32_t& month, uint32_t& day);

// "YYYY-MM-DD". Returns nullopt when malformed or not a real calendar date.
std::optional<int32_t> try_parse_date(std::string_view text);
// Throws floe::Error: "invalid input syntax ..." or, for a well-formed date that does not
// exist such as 1999-02-30, "date/time field value out of range" (PostgreSQL's messages).
int32_t parse_date(std::string_view text);
enum class DateParseResult : uint8_t { kOk, kSyntax, kOutOfRange };
DateParseResult parse_date(std::string_view text, int32_t& days);
std::string format_date(int32_t days);

// "YYYY-MM-DD[ HH:MM:SS[.ffffff]]".
std::optional<int64_t> try_parse_timestamp(std::string_view text);
int64_t parse_timestamp(std::string_view text);  // throws floe::Error
std::string format_timestamp(int64_t micros);

// date + interval -> timestamp (PostgreSQL), month arithmetic clamps the day of month.
int64_t add_interval_to_timestamp(int64_t micros, const Interval& interval);
// date +/- interval with no time part stays a date (used when the interval has no micros).
int32_t add_interval_to_date(int32_t days, const Interval& interval);

enum class DatePart : uint8_t { kYear, kQuarter, kMonth, kDay, kDayOfWeek, kDayOfYear, kHour,
                                kMinute, kSecond, kEpoch };
std::optional<DatePart> parse_date_part(std::string_view name);
int64_t extract_from_date(DatePart part, int32_t days);
int64_t extract_from_timestamp(DatePart part, int64_t micros);

}  // namespace floe
