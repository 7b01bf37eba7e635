// The per-value arithmetic of aggregate states that is more than an addition: averages and
// the variance family's accumulators (engine/plan/aggregate_layout.h describes the states).
// One definition for both engines: generated code calls these through runtime_abi.h
// (floe_rt_average_exact, floe_rt_variance_*), the vectorized kernels
// (runtime/vector/aggregate_kernels.h) call them directly.
#pragma once

#include <cstdint>

#include "storage/decimal.h"

namespace floe {

// avg of `count` (>= 1) exact values from their sum at `scale` decimals, as a double.
inline double exact_average(__int128 sum, int64_t count, int32_t scale) {
  double value = static_cast<double>(sum);
  if (scale > 0) value /= static_cast<double>(power_of_ten(scale));
  return value / static_cast<double>(count);
}

// The state of a variance over doubles: the count, the sum and the sum of squared deviations
// from the mean (Youngs-Cramer, as PostgreSQL's float8_accum).
struct DoubleVariance {
  int64_t count;
  double sum;
  double squares;
};

// Adds x: the squared deviation grows by (n·x − Σx)² / (n·(n−1)); the first value's term is
// 0, or NaN for an infinite x.
inline void variance_add(DoubleVariance& state, double x) {
  double old_n = static_cast<double>(state.count);
  double n = old_n + 1.0;
  state.sum += x;
  double deviation = x * n - state.sum;
  state.squares += state.count > 0 ? deviation * deviation / (n * old_n) : x * 0.0;
  ++state.count;
}

// Merges `from` into `into` as PostgreSQL's float8_combine: Sxx = Sxx1 + Sxx2 +
// n1·n2·(Σx1/n1 − Σx2/n2)² / (n1+n2), or one side's state when the other side is empty.
inline void variance_combine(DoubleVariance& into, const DoubleVariance& from) {
  double n1 = static_cast<double>(into.count);
  double n2 = static_cast<double>(from.count);
  double gap = into.sum / n1 - from.sum / n2;
  double both = into.squares + from.squares + n1 * n2 * gap * gap / (n1 + n2);
  into.squares = into.count == 0 ? from.squares : (from.count == 0 ? into.squares : both);
  into.sum += from.sum;
  into.count += from.count;
}

// The state of a variance over exact numbers (integers, numerics of scale s): the count, the
// sum (scale s) and the sum of squares (scale 2s), so that merged partial states give the
// same answer in any order.
struct ExactVariance {
  int64_t count;
  __int128 sum;
  __int128 squares;
};

// Adds x; true when the sum or the sum of squares leaves 128 bits ("numeric field
// overflow"; the state is then undefined).
inline bool variance_add(ExactVariance& state, __int128 x) {
  __int128 square;
  bool overflow = __builtin_mul_overflow(x, x, &square);
  overflow |= __builtin_add_overflow(state.sum, x, &state.sum);
  overflow |= __builtin_add_overflow(state.squares, square, &state.squares);
  ++state.count;
  return overflow;
}

inline bool variance_combine(ExactVariance& into, const ExactVariance& from) {
  bool overflow = __builtin_add_overflow(into.sum, from.sum, &into.sum);
  overflow |= __builtin_add_overflow(into.squares, from.squares, &into.squares);
  into.count += from.count;
  return overflow;
}

}  // namespace floe
