// INTERVAL as PostgreSQL stores it: months, days and microseconds are kept apart because
// their lengths in absolute time depend on the date they are added to.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

namespace floe {

struct Interval {
  int32_t months = 0;
  int32_t days = 0;
  int64_t micros = 0;

  bool operator==(const Interval&) const = default;
};
static_assert(sizeof(Interval) == 16);

// Parses PostgreSQL interval input: quantities with units ("1 year 2 months 3 days",
// "2 hours 30 minutes", "1.5 weeks", "-1 day", "3 mins 4 secs", abbreviations as in
// EXTRACT), a time "[-]HH:MM[:SS[.ffffff]]", a year-month "1-2", a bare number (seconds, or
// days before a time), a leading "@" and a trailing "ago". Fractions spill into the smaller
// fields as in PostgreSQL (a month is 30 days, a day 24 hours). Throws floe::Error
// ("invalid input syntax for type interval: ..." or "interval field value out of range").
Interval parse_interval(std::string_view text);

// A quantity with a unit ("year", "month", "day", "hour", "minute", "second"), as in
// INTERVAL '3' MONTH.
Interval interval_from_unit(int64_t quantity, std::string_view unit);

// PostgreSQL's output style "postgres": "1 year 2 mons 3 days 04:05:06", "-1 days +01:00:00".
std::string format_interval(const Interval& interval);

// Total ordering PostgreSQL uses for intervals (30-day months, 24-hour days).
// An interval's length in microseconds with a month as 30 days (PostgreSQL's
// interval_cmp_value): the value intervals compare and hash by.
inline __int128 interval_span(const Interval& i) {
  constexpr int64_t kMicrosInDay = 86'400'000'000;  // date_time.h's kMicrosPerDay
  return (static_cast<__int128>(i.months) * 30 + i.days) * kMicrosInDay + i.micros;
}

int compare_intervals(const Interval& a, const Interval& b);

// a + b or a - b field by field; throws floe::Error "interval out of range" on overflow.
Interval add_intervals(const Interval& a, const Interval& b, bool subtract);

// timestamp - timestamp: whole days go to the day field (PostgreSQL's justify_hours).
Interval subtract_timestamps(int64_t a, int64_t b);

// interval * factor and interval / divisor (PostgreSQL's interval_mul and interval_div):
// each field is scaled, and the fractions of months and days cascade into days and
// microseconds. Throws floe::Error "interval out of range" or "division by zero".
Interval multiply_interval(const Interval& interval, double factor);
Interval divide_interval(const Interval& interval, double divisor);

}  // namespace floe
