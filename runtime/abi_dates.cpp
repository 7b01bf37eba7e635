// runtime_abi.h: EXTRACT and date/interval arithmetic, wrapping storage/date_time.h.
#include "runtime/runtime_abi.h"
#include "storage/date_time.h"

extern "C" {

int64_t floe_rt_extract_date(int32_t part, int32_t days) {
  return floe::extract_from_date(static_cast<floe::DatePart>(part), days);
}

int64_t floe_rt_extract_timestamp(int32_t part, int64_t micros) {
  return floe::extract_from_timestamp(static_cast<floe::DatePart>(part), micros);
}

int32_t floe_rt_date_add_months(int32_t days, int32_t months) {
  return floe::add_interval_to_date(days, floe::Interval{months, 0, 0});
}

int64_t floe_rt_timestamp_add_interval(int64_t micros, int32_t months, int32_t days,
                                       int64_t interval_micros) {
  return floe::add_interval_to_timestamp(micros, floe::Interval{months, days, interval_micros});
}

}  // extern "C"
