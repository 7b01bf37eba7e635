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

// Parses PostgreSQL interval text such as "90 days", "1 year 2 mons", "3 hours", "1-2".
// Throws floe::Error on malformed input.
Interval parse_interval(std::string_view text);

// A quantity with a unit ("year", "month", "day", "hour", "minute", "second"), as in
// INTERVAL '3' MONTH.
Interval interval_from_unit(int64_t quantity, std::string_view unit);

// PostgreSQL output style: "1 year 2 mons 3 days 04:05:06".
std::string format_interval(const Interval& interval);

// Total ordering PostgreSQL uses for intervals (30-day months, 24-hour days).
int compare_intervals(const Interval& a, const Interval& b);

}  // namespace floe
