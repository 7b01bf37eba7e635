#include "storage/numeric_casts.h"

#include <cmath>
#include <limits>
#include <string>

#include "storage/date_time.h"
#include "storage/value.h"

namespace floe {

IntegerRange integer_range(TypeId id) {
  switch (id) {
    case TypeId::kSmallInt:
      return {std::numeric_limits<int16_t>::min(), std::numeric_limits<int16_t>::max()};
    case TypeId::kInteger:
      return {std::numeric_limits<int32_t>::min(), std::numeric_limits<int32_t>::max()};
    default:
      return {std::numeric_limits<int64_t>::min(), std::numeric_limits<int64_t>::max()};
  }
}

const char* integer_out_of_range(TypeId id) {
  switch (id) {
    case TypeId::kSmallInt:
      return "smallint out of range";
    case TypeId::kInteger:
      return "integer out of range";
    default:
      return "bigint out of range";
  }
}

const char* integer_to_integer(int128_t value, TypeId to, int64_t& out) {
  IntegerRange range = integer_range(to);
  if (value < range.min || value > range.max) return integer_out_of_range(to);
  out = static_cast<int64_t>(value);
  return nullptr;
}

const char* double_to_integer(double value, TypeId to, int64_t& out) {
  double rounded = std::rint(value);
  IntegerRange range = integer_range(to);
  // -2^(bits-1) is exact as a double; the upper bound is exclusive, as in PostgreSQL's
  // FLOAT8_FITS_IN_INT64 (the largest integer below it is the type's maximum).
  double low = static_cast<double>(range.min);
  if (!(rounded >= low && rounded < -low)) return integer_out_of_range(to);
  out = static_cast<int64_t>(rounded);
  return nullptr;
}

const char* decimal_to_integer(int128_t value, unsigned scale, TypeId to, int64_t& out) {
  // Rounded to scale 0 as numeric(38,0), which always fits.
  int128_t whole = *rescale_decimal(value, scale, kMaxDecimalPrecision, 0);
  return integer_to_integer(whole, to, out);
}

const char* decimal_to_decimal(int128_t value, unsigned from_scale, unsigned precision,
                               unsigned scale, int128_t& out) {
  std::optional<int128_t> result = rescale_decimal(value, from_scale, precision, scale);
  if (!result) return kNumericOverflow;
  out = *result;
  return nullptr;
}

double decimal_to_double(int128_t value, unsigned scale) {
  double converted = static_cast<double>(value);
  if (scale == 0) return converted;
  return converted / static_cast<double>(power_of_ten(scale));
}

const char* double_to_decimal(double value, unsigned precision, unsigned scale, int128_t& out) {
  if (std::isnan(value)) return kNaNToNumeric;
  if (std::isinf(value)) return kNumericOverflow;
  std::optional<int128_t> result = try_parse_decimal(format_double(value), precision, scale);
  if (!result) return kNumericOverflow;  // the shortest form of a finite double is well-formed
  out = *result;
  return nullptr;
}

const char* date_to_timestamp(int32_t days, int64_t& out) {
  if (__builtin_mul_overflow(int64_t{days}, kMicrosPerDay, &out))
    return "date out of range for timestamp";
  return nullptr;
}

int32_t timestamp_to_date(int64_t micros) {
  int64_t days = micros / kMicrosPerDay - (micros % kMicrosPerDay < 0);
  return static_cast<int32_t>(days);
}

}  // namespace floe
