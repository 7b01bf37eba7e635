#include "tpch/random_stream.h"

namespace floe::tpch {

int64_t RandomStream::uniform(int64_t low, int64_t high) {
  // dbgen computes the range of uniform(0, MAX_LONG) in 32-bit arithmetic, where
  // MAX_LONG - 0 + 1 wraps to -2^31; the draw is then scaled by a negative range.
  double range =
      (low == 0 && high == kMaxLong) ? -2147483648.0 : static_cast<double>(high - low + 1);
  seed_ = seed_ * kMultiplier % kModulus;
  ++draws_this_row_;
  return low +
         static_cast<int64_t>(static_cast<double>(seed_) / static_cast<double>(kModulus) * range);
}

void RandomStream::skip(int64_t draws) {
  seed_ = skip_seed(seed_, draws);
}

void RandomStream::next_row() {
  if (draws_this_row_ < draws_per_row_) skip(draws_per_row_ - draws_this_row_);
  draws_this_row_ = 0;
}

int64_t skip_seed(int64_t seed, int64_t draws) {
  // Square-and-multiply on the multiplier: 16807^draws mod m, applied to the seed.
  int64_t multiplier = RandomStream::kMultiplier;
  while (draws > 0) {
    if (draws % 2 != 0) seed = seed * multiplier % RandomStream::kModulus;
    multiplier = multiplier * multiplier % RandomStream::kModulus;
    draws /= 2;
  }
  return seed;
}

}  // namespace floe::tpch
