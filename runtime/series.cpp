#include "runtime/series.h"

#include <string>

#include "storage/date_time.h"
#include "storage/error.h"

namespace floe {

namespace {

// Stored timestamps cost memory: a calendar step over the whole timestamp range has about
// 3.5 million, so this bound only stops steps that make no progress.
constexpr uint64_t kMaxCalendarSeriesLength = uint64_t{1} << 24;

[[noreturn]] void too_long(uint64_t bound) {
  throw Error("generate_series with more than " + std::to_string(bound) +
              " values is not supported");
}

}  // namespace

std::optional<int128_t> linear_step(const Value& step) {
  if (step.type().id != TypeId::kInterval) return step.as_int128();
  const Interval& interval = step.as_interval();
  if (interval.months != 0) return std::nullopt;
  return int128_t{interval.days} * kMicrosPerDay + interval.micros;
}

uint64_t series_length(int128_t start, int128_t stop, int128_t step) {
  if (step == 0) throw Error("step size cannot equal zero");
  if (step > 0 ? start > stop : start < stop) return 0;
  // Unsigned: the distance between two 38-digit numerics exceeds int128_t.
  using Unsigned = unsigned __int128;
  Unsigned distance =
      step > 0 ? Unsigned(stop) - Unsigned(start) : Unsigned(start) - Unsigned(stop);
  Unsigned magnitude = step > 0 ? Unsigned(step) : -Unsigned(step);
  Unsigned length = distance / magnitude + 1;
  if (length > kMaxSeriesLength) too_long(kMaxSeriesLength);
  return static_cast<uint64_t>(length);
}

CalendarSeries::CalendarSeries(int64_t start, int64_t stop, const Interval& step)
    : value_(start), stop_(stop), step_(step) {
  // PostgreSQL orders intervals with a month as 30 days.
  int128_t span = (int128_t{step.months} * 30 + step.days) * kMicrosPerDay + step.micros;
  if (span == 0) throw Error("step size cannot equal zero");
  ascending_ = span > 0;
}

std::optional<int64_t> CalendarSeries::next() {
  if (ascending_ ? value_ > stop_ : value_ < stop_) return std::nullopt;
  if (count_++ >= kMaxCalendarSeriesLength) too_long(kMaxCalendarSeriesLength);
  int64_t value = value_;
  value_ = add_interval_to_timestamp(value_, step_);
  return value;
}

std::vector<int64_t> calendar_series(int64_t start, int64_t stop, const Interval& step) {
  CalendarSeries series(start, stop, step);
  std::vector<int64_t> values;
  while (auto value = series.next()) values.push_back(*value);
  return values;
}

}  // namespace floe
