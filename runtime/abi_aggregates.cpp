// runtime_abi.h: the final steps of the variance aggregates and the collected aggregates
// (codegen/aggregate_states.h, runtime/collected_values.h).
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#include "runtime/abi_support.h"
#include "runtime/aggregate_math.h"
#include "runtime/collected_values.h"
#include "storage/decimal.h"

using floe::WorkerContext;

namespace {

// A positive number as PostgreSQL's NumericVar holds it in base-10000 digits: the weight of
// the leading digit and its value. The number is `digits` (decimal, no leading zero) times
// 10^-scale.
struct LeadingDigit {
  int weight;
  int value;
};

LeadingDigit leading_digit(const std::string& digits, int scale) {
  int exponent = static_cast<int>(digits.size()) - 1 - scale;  // of the first decimal digit
  int weight = exponent >= 0 ? exponent / 4 : -((3 - exponent) / 4);
  int count = exponent - 4 * weight + 1;  // decimal digits in the leading base-10000 digit
  int value = 0;
  for (int i = 0; i < count; ++i)
    value = value * 10 + (i < static_cast<int>(digits.size()) ? digits[i] - '0' : 0);
  return {weight, value};
}

std::string decimal_digits(long double value) {
  std::vector<char> text(64);
  std::snprintf(text.data(), text.size(), "%.0Lf", value);
  return text.data();
}

// PostgreSQL's select_div_scale: at least 16 significant digits (NUMERIC_MIN_SIG_DIGITS),
// and no fewer decimals than either operand has.
int division_scale(LeadingDigit dividend, int dividend_scale, LeadingDigit divisor) {
  int quotient_weight = dividend.weight - divisor.weight;
  if (dividend.value <= divisor.value) --quotient_weight;
  return std::clamp(std::max(16 - quotient_weight * 4, dividend_scale), 0, 1000);
}

// `value` rounded to `scale` decimals, as text.
std::string rounded(long double value, int scale) {
  std::vector<char> text(static_cast<size_t>(scale) + 64);
  std::snprintf(text.data(), text.size(), "%.*Lf", scale, value);
  return text.data();
}

}  // namespace

extern "C" {

double floe_rt_variance_exact(int64_t count, __int128 sum, __int128 squares, int32_t scale,
                              int32_t kind) {
  const __int128 n = count;
  __int128 n_squares, sum_squared, numerator;
  long double exact;
  std::string numerator_digits;
  if (__builtin_mul_overflow(n, squares, &n_squares) ||
      __builtin_mul_overflow(sum, sum, &sum_squared) ||
      __builtin_sub_overflow(n_squares, sum_squared, &numerator)) {
    // Beyond 128 bits: the same formula in long double (64-bit mantissa).
    exact = static_cast<long double>(n) * static_cast<long double>(squares) -
            static_cast<long double>(sum) * static_cast<long double>(sum);
    numerator_digits = decimal_digits(exact);
  } else {
    exact = static_cast<long double>(numerator);
    numerator_digits = floe::format_int128(numerator);
  }
  if (exact <= 0) return 0;  // all values equal (or a rounded long double numerator)
  const __int128 denominator = n * ((kind & kFloeVarianceSample) ? n - 1 : n);
  const long double unit = static_cast<long double>(floe::power_of_ten(scale));
  long double variance = exact / static_cast<long double>(denominator) / (unit * unit);
  // PostgreSQL's numeric result has a value-dependent number of decimals; rounding to them
  // gives the double nearest to that numeric (its cast to double precision).
  int result_scale = division_scale(leading_digit(numerator_digits, 2 * scale), 2 * scale,
                                    leading_digit(floe::format_int128(denominator), 0));
  std::string text = rounded(variance, result_scale);
  if (kind & kFloeVarianceRoot)
    text = rounded(std::sqrt(std::strtold(text.c_str(), nullptr)), result_scale);
  return std::strtod(text.c_str(), nullptr);
}

double floe_rt_variance_double(int64_t count, double squares, int32_t kind) {
  // PostgreSQL's float8_var_* / float8_stddev_*: Sxx is never negative.
  double size = static_cast<double>(count);
  double variance = squares / ((kind & kFloeVarianceSample) ? size - 1.0 : size);
  return (kind & kFloeVarianceRoot) ? std::sqrt(variance) : variance;
}

double floe_rt_average_exact(__int128 sum, int64_t count, int32_t scale) {
  return floe::exact_average(sum, count, scale);
}

}  // extern "C"

namespace {

// A group row's variance accumulators, read from and written back to three fields (which
// need not be aligned for their types).
template <typename State, typename Number>
State load_variance(const uint8_t* count, const uint8_t* sum, const uint8_t* squares) {
  State state;
  std::memcpy(&state.count, count, sizeof(int64_t));
  std::memcpy(&state.sum, sum, sizeof(Number));
  std::memcpy(&state.squares, squares, sizeof(Number));
  return state;
}

template <typename State, typename Number>
void store_variance(const State& state, uint8_t* count, uint8_t* sum, uint8_t* squares) {
  std::memcpy(count, &state.count, sizeof(int64_t));
  std::memcpy(sum, &state.sum, sizeof(Number));
  std::memcpy(squares, &state.squares, sizeof(Number));
}

bool numeric_overflow(WorkerContext* worker) {
  worker->query->fail(floe::kNumericOverflow);
  return false;
}

}  // namespace

extern "C" {

void floe_rt_variance_add_double(uint8_t* count, uint8_t* sum, uint8_t* squares, double x) {
  auto state = load_variance<floe::DoubleVariance, double>(count, sum, squares);
  floe::variance_add(state, x);
  store_variance<floe::DoubleVariance, double>(state, count, sum, squares);
}

bool floe_rt_variance_add_exact(WorkerContext* worker, uint8_t* count, uint8_t* sum,
                                uint8_t* squares, __int128 x) {
  auto state = load_variance<floe::ExactVariance, __int128>(count, sum, squares);
  if (floe::variance_add(state, x)) return numeric_overflow(worker);
  store_variance<floe::ExactVariance, __int128>(state, count, sum, squares);
  return true;
}

void floe_rt_variance_combine_double(uint8_t* count, uint8_t* sum, uint8_t* squares,
                                     const uint8_t* from_count, const uint8_t* from_sum,
                                     const uint8_t* from_squares) {
  auto state = load_variance<floe::DoubleVariance, double>(count, sum, squares);
  floe::variance_combine(
      state, load_variance<floe::DoubleVariance, double>(from_count, from_sum, from_squares));
  store_variance<floe::DoubleVariance, double>(state, count, sum, squares);
}

bool floe_rt_variance_combine_exact(WorkerContext* worker, uint8_t* count, uint8_t* sum,
                                    uint8_t* squares, const uint8_t* from_count,
                                    const uint8_t* from_sum, const uint8_t* from_squares) {
  auto state = load_variance<floe::ExactVariance, __int128>(count, sum, squares);
  if (floe::variance_combine(
          state, load_variance<floe::ExactVariance, __int128>(from_count, from_sum, from_squares)))
    return numeric_overflow(worker);
  store_variance<floe::ExactVariance, __int128>(state, count, sum, squares);
  return true;
}

}  // extern "C"

namespace {

floe::CollectedOrder collected_order(int32_t order) {
  floe::CollectedOrder result;
  result.has_key = (order & kFloeOrderKey) != 0;
  result.key_type = static_cast<floe::PhysicalType>(order & 0xff);
  result.descending = (order & kFloeOrderDescending) != 0;
  result.nulls_first = (order & kFloeOrderNullsFirst) != 0;
  result.distinct = (order & kFloeOrderDistinct) != 0;
  return result;
}

const floe::CollectedList& as_list(const uint8_t* list) {
  return *reinterpret_cast<const floe::CollectedList*>(list);
}

}  // namespace

extern "C" {

void floe_rt_collect(WorkerContext* worker, uint8_t* list, const uint8_t* key, bool key_null,
                     const uint8_t* value, const uint8_t* delimiter, int32_t order) {
  floe::collect(*worker->strings, *reinterpret_cast<floe::CollectedList*>(list),
                collected_order(order).key_type, key_null ? nullptr : key, value, delimiter);
}

void floe_rt_collect_merge(uint8_t* into, uint8_t* from) {
  floe::append(*reinterpret_cast<floe::CollectedList*>(into),
               *reinterpret_cast<floe::CollectedList*>(from));
}

FloeString floe_rt_string_agg(WorkerContext* worker, const uint8_t* list, int32_t order) {
  return floe::to_floe_string(
      floe::string_agg(as_list(list), collected_order(order), *worker->strings));
}

bool floe_rt_percentile_cont(WorkerContext* worker, const uint8_t* list, double fraction,
                             int32_t order, double* out) {
  return floe::record_failure(worker, [&] {
    floe::check_fraction(fraction);
    *out = floe::percentile_cont(as_list(list), collected_order(order), fraction);
  });
}

bool floe_rt_percentile_disc(WorkerContext* worker, const uint8_t* list, double fraction,
                             int32_t order, uint8_t* out) {
  return floe::record_failure(worker, [&] {
    floe::check_fraction(fraction);
    floe::percentile_disc(as_list(list), collected_order(order), fraction, out);
  });
}

void floe_rt_mode(const uint8_t* list, int32_t order, uint8_t* out) {
  floe::mode(as_list(list), collected_order(order), out);
}

}  // extern "C"
