// Date/time functions (issue 8): PostgreSQL's semantics, written once, registered in the
// function registry (register_date_time_functions) for generated code and constant folding
// alike. Errors are thrown as floe::Error with PostgreSQL's messages; the registry's thunks
// record them. Timestamps are PostgreSQL's timestamp without time zone: floe has no time
// zones, so the timestamptz forms (now(), to_timestamp) map onto these as well.
#pragma once

#include <cstdint>
#include <string_view>

#include "storage/interval.h"

namespace floe {

// date_trunc('field', timestamp) and date_trunc('field', interval); a date argument is a
// timestamp at midnight. Fields: microseconds .. millennium, and week (Monday) for timestamps.
// Errors: unit "x" not recognized / not supported for type ...
int64_t date_trunc_timestamp(std::string_view field, int64_t micros);
Interval date_trunc_interval(std::string_view field, const Interval& interval);

// age(a, b): the symbolic difference in years, months and days (not 30-day months), with
// the borrow taken from the month lengths of the earlier argument, as PostgreSQL does.
// age(x) is age(current_date at midnight, x).
Interval age(int64_t a, int64_t b);

// make_date(year, month, day); a negative year is BC. Throws "date field value out of range:
// 2023-02-30".
int32_t make_date(int64_t year, int64_t month, int64_t day);
// make_timestamp(year, month, day, hour, min, sec); sec may have a fraction.
int64_t make_timestamp(int64_t year, int64_t month, int64_t day, int64_t hour, int64_t minute,
                       double second);
// make_interval(years, months, weeks, days, hours, mins, secs).
Interval make_interval(int64_t years, int64_t months, int64_t weeks, int64_t days, int64_t hours,
                       int64_t minutes, double seconds);

}  // namespace floe
