// Date/time fields (units): the names PostgreSQL accepts in EXTRACT / date_part, in interval
// literals ('2 hours 30 mins') and in date_trunc, and EXTRACT's values for date, timestamp
// and interval sources.
#pragma once

#include <cstdint>
#include <optional>
#include <string_view>

#include "storage/decimal.h"
#include "storage/interval.h"
#include "storage/types.h"

namespace floe {

enum class DatePart : uint8_t {
  kMicroseconds,
  kMilliseconds,
  kSecond,
  kMinute,
  kHour,
  kDay,
  kWeek,  // ISO 8601 week number
  kMonth,
  kQuarter,
  kYear,
  kDecade,
  kCentury,
  kMillennium,
  kJulian,
  kIsoYear,
  kDayOfWeek,     // dow: Sunday = 0
  kIsoDayOfWeek,  // isodow: Monday = 1 ... Sunday = 7
  kDayOfYear,
  kEpoch,
};

// PostgreSQL's unit names with their abbreviations and plurals ("years", "mins", "ms", "qtr",
// "dow"), case-insensitive. nullopt for an unknown name.
std::optional<DatePart> parse_date_part(std::string_view name);
// The canonical name, as EXPLAIN prints it.
const char* date_part_name(DatePart part);

// EXTRACT returns numeric (PostgreSQL 15): an exact value `scaled` = value * 10^scale. The
// scale depends on the field only (seconds carry 6 fractional digits, milliseconds 3), so a
// fixed-scale numeric type holds every result. nullopt when PostgreSQL rejects the unit for
// the source type ("unit \"hour\" not supported for type date").
struct ExtractType {
  uint8_t precision;
  uint8_t scale;
};
std::optional<ExtractType> extract_type(DatePart part, TypeId source);

// The scaled results; only for parts extract_type accepts for that source.
int64_t extract_from_date(DatePart part, int32_t days);
int64_t extract_from_timestamp(DatePart part, int64_t micros);
int128_t extract_from_interval(DatePart part, const Interval& interval);

}  // namespace floe
