// runtime_abi.h: EXTRACT and date/interval arithmetic, wrapping storage/date_time.h.
#include "runtime/abi_support.h"
#include "storage/date_time.h"

using floe::DatePart;
using floe::Interval;

extern "C" {

int64_t floe_rt_extract_date(int32_t part, int32_t days) {
  return floe::extract_from_date(static_cast<DatePart>(part), days);
}

int64_t floe_rt_extract_timestamp(int32_t part, int64_t micros) {
  return floe::extract_from_timestamp(static_cast<DatePart>(part), micros);
}

__int128 floe_rt_extract_interval(int32_t part, int32_t months, int32_t days, int64_t micros) {
  return floe::extract_from_interval(static_cast<DatePart>(part), Interval{months, days, micros});
}

bool floe_rt_interval_multiply(floe::WorkerContext* worker, int32_t months, int32_t days,
                               int64_t micros, double factor, Interval* out) {
  return floe::record_failure(
      worker, [&] { *out = floe::multiply_interval(Interval{months, days, micros}, factor); });
}

bool floe_rt_interval_divide(floe::WorkerContext* worker, int32_t months, int32_t days,
                             int64_t micros, double divisor, Interval* out) {
  return floe::record_failure(
      worker, [&] { *out = floe::divide_interval(Interval{months, days, micros}, divisor); });
}

int32_t floe_rt_date_add_months(int32_t days, int32_t months) {
  return floe::add_interval_to_date(days, Interval{months, 0, 0});
}

int64_t floe_rt_timestamp_add_interval(int64_t micros, int32_t months, int32_t days,
                                       int64_t interval_micros) {
  return floe::add_interval_to_timestamp(micros, Interval{months, days, interval_micros});
}

}  // extern "C"
