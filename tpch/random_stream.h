// The random number streams of TPC-H dbgen: Park and Miller's "minimum standard" generator
// (CACM, Oct 1988) x' = 16807 x mod (2^31 - 1), one stream per generated column.
#pragma once

#include <cstdint>

namespace floe::tpch {

class RandomStream {
 public:
  static constexpr int64_t kModulus = 2147483647;
  static constexpr int64_t kMultiplier = 16807;
  // dbgen's MAX_LONG: uniform(0, kMaxLong) takes a quirky path, see uniform().
  static constexpr int64_t kMaxLong = 0x7FFFFFFF;

  // `draws_per_row` is the fixed number of draws dbgen reserves for each row of the
  // column (0 for a stream not tied to rows); next_row() skips whatever a row left unused.
  explicit RandomStream(int64_t seed, int64_t draws_per_row = 0)
      : seed_(seed), draws_per_row_(draws_per_row) {}

  int64_t seed() const { return seed_; }

  // A uniformly distributed integer in [low, high] (dbgen's UnifInt): one draw.
  int64_t uniform(int64_t low, int64_t high);

  // Advances the stream by `draws` draws in O(log draws) steps.
  void skip(int64_t draws);

  // Moves to the first draw of the next row. A row that used more than its budget leaves
  // the stream where it is, as dbgen does.
  void next_row();

 private:
  int64_t seed_;
  int64_t draws_per_row_;
  int64_t draws_this_row_ = 0;
};

// The seed after `draws` draws from `seed`: seed * 16807^draws mod (2^31 - 1).
int64_t skip_seed(int64_t seed, int64_t draws);

}  // namespace floe::tpch
