// generate_series with PostgreSQL's semantics (src/backend/utils/adt/int.c, timestamp.c):
// start, start + step, ... while not past stop; nothing when the step points away from
// stop; an error for a zero step.
#pragma once

#include <cstdint>
#include <optional>
#include <vector>

#include "storage/interval.h"
#include "storage/types.h"
#include "storage/value.h"

namespace floe {

// The most values one series may have: its morsels are listed up front.
constexpr uint64_t kMaxSeriesLength = uint64_t{1} << 36;

// The distance between neighbouring values of a series as an integer: the step itself for
// integers and scaled decimals, microseconds for an interval without months; nullopt for a
// calendar step (with months).
std::optional<int128_t> linear_step(const Value& step);

// The number of values of an integer (or scaled decimal, or microsecond) series. Throws
// floe::Error.
uint64_t series_length(int128_t start, int128_t stop, int128_t step);

// The timestamps of a series whose interval step has months, one at a time: by repeated
// addition, as PostgreSQL does (a calendar step depends on the path: Jan 31, Feb 29, Mar 29,
// ...). Steps without months are plain microsecond series (series_length).
class CalendarSeries {
 public:
  // Throws floe::Error for a zero step.
  CalendarSeries(int64_t start, int64_t stop, const Interval& step);
  // The next timestamp, or nullopt past stop. Throws floe::Error after too many values (a
  // step that makes no progress).
  std::optional<int64_t> next();

 private:
  int64_t value_, stop_;
  Interval step_;
  bool ascending_;
  uint64_t count_ = 0;
};

// All timestamps of a CalendarSeries. Throws floe::Error.
std::vector<int64_t> calendar_series(int64_t start, int64_t stop, const Interval& step);

}  // namespace floe
