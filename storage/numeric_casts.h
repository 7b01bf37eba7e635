// The one definition of the casts between booleans, integers, numerics, doubles, dates and
// timestamps (issue 8's "one implementation per function"). Generated code calls these
// through runtime_abi.h (floe_rt_cast_*) and inlines only what has no semantic choice (sign
// extension, integer -> double, boolean <-> integer, and the integer range check with
// integer_range's bounds and integer_out_of_range's message); the vectorized engine
// (runtime/vector/cast.cpp) calls them per row; cast_value calls them for Values (INSERT
// assignment, COPY, binder constants). Text conversions are parse_value / format_* (value.h).
//
// Each cast returns nullptr and writes `out`, or returns PostgreSQL's error message (and
// leaves `out` alone).
#pragma once

#include <cstdint>

#include "storage/decimal.h"
#include "storage/types.h"

namespace floe {

struct IntegerRange {
  int64_t min;
  int64_t max;
};
// The values of smallint, integer or bigint (`id`).
IntegerRange integer_range(TypeId id);

// "smallint out of range", "integer out of range", "bigint out of range".
const char* integer_out_of_range(TypeId id);

// A boolean as an integer (1 or 0), an integer as a boolean (nonzero is true).
inline int64_t bool_to_integer(bool value) {
  return value ? 1 : 0;
}
inline bool integer_to_bool(int128_t value) {
  return value != 0;
}

// An integer (of any integer type, or a wider intermediate) as integer type `to`.
const char* integer_to_integer(int128_t value, TypeId to, int64_t& out);

// PostgreSQL's float8 -> int: rint() (half to even), then a range check that rejects NaN and
// infinity too: -2^63 converts, 2^63 (the double nearest 2^63 - 1) does not.
const char* double_to_integer(double value, TypeId to, int64_t& out);

// numeric(p, scale) -> integer: rounded half away from zero, then range-checked.
const char* decimal_to_integer(int128_t value, unsigned scale, TypeId to, int64_t& out);

// An integer (scale 0) or a numeric of scale `from_scale` as numeric(precision, scale).
const char* decimal_to_decimal(int128_t value, unsigned from_scale, unsigned precision,
                               unsigned scale, int128_t& out);

// numeric(p, scale) -> double precision.
double decimal_to_double(int128_t value, unsigned scale);

// PostgreSQL converts a double to numeric through its shortest text form; so does floe.
// Infinity fails as PostgreSQL 15 fails for numeric(p,s) ("numeric field overflow"); floe's
// numeric has no NaN, so NaN fails where PostgreSQL returns NaN.
const char* double_to_decimal(double value, unsigned precision, unsigned scale, int128_t& out);
constexpr const char* kNaNToNumeric = "cannot convert NaN to numeric";

// date (days since 1970) -> timestamp (microseconds since 1970).
const char* date_to_timestamp(int32_t days, int64_t& out);
// timestamp -> date: the day it falls on (floor division: times before 1970 belong to the
// earlier day).
int32_t timestamp_to_date(int64_t micros);

}  // namespace floe
