// find_matches / reduce_matches (runtime/simd_match.h) at every instruction set level the CPU
// supports, for every element type, against a plain loop.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <random>
#include <utility>
#include <vector>

#include "runtime/simd_match.h"
#include "runtime_simd_test_support.h"
#include "storage/error.h"

namespace floe::simd {
namespace {

constexpr uint32_t kSentinel = 0xDEADBEEF;
constexpr uint32_t kGuard = 64;

template <typename T>
std::vector<uint32_t> expected_find(const T* values, uint32_t begin, uint32_t end, T lo, T hi) {
  std::vector<uint32_t> matches;
  for (uint32_t p = begin; p < end; ++p) {
    if (lo <= values[p] && values[p] <= hi) matches.push_back(p);
  }
  return matches;
}

template <typename T>
std::vector<uint32_t> expected_reduce(const T* values, const std::vector<uint32_t>& positions, T lo,
                                      T hi) {
  std::vector<uint32_t> kept;
  for (uint32_t p : positions) {
    if (lo <= values[p] && values[p] <= hi) kept.push_back(p);
  }
  return kept;
}

// Calls find_matches with an output buffer of exactly end - begin entries followed by guard
// entries, and checks that the guard is untouched.
template <typename T>
std::vector<uint32_t> run_find(const T* values, uint32_t begin, uint32_t end, T lo, T hi) {
  std::vector<uint32_t> out(end - begin + kGuard, kSentinel);
  uint32_t count = find_matches(values, begin, end, lo, hi, out.data());
  EXPECT_LE(count, end - begin);
  for (uint32_t i = end - begin; i < out.size(); ++i) {
    EXPECT_EQ(out[i], kSentinel) << "write past the end of out at " << i;
  }
  out.resize(count);
  return out;
}

// Bounds to try on values: random pairs from the data and the type's extremes, the full
// range, empty ranges (lo > hi) and single values.
template <typename T>
std::vector<std::pair<T, T>> bound_pairs(const T* values, uint32_t size, std::mt19937_64& rng) {
  using Limits = std::numeric_limits<T>;
  auto pick = [&] {
    if (size > 0 && rng() % 2 == 0) return values[rng() % size];
    return random_value<T>(rng);
  };
  std::vector<std::pair<T, T>> pairs;
  pairs.emplace_back(Limits::lowest(), Limits::max());
  pairs.emplace_back(Limits::lowest(), Limits::lowest());
  pairs.emplace_back(Limits::max(), Limits::max());
  pairs.emplace_back(Limits::max(), Limits::lowest());
  if constexpr (std::is_floating_point_v<T>) {
    pairs.emplace_back(-Limits::infinity(), Limits::infinity());
    pairs.emplace_back(std::nan(""), Limits::infinity());
    pairs.emplace_back(-Limits::infinity(), std::nan(""));
    pairs.emplace_back(-0.0, 0.0);
    pairs.emplace_back(0.0, 0.0);
  }
  for (int i = 0; i < 10; ++i) {
    T a = pick();
    T b = pick();
    pairs.emplace_back(a, b);  // sorted or not: lo > hi must match nothing
    pairs.emplace_back(std::min(a, b), std::max(a, b));
    pairs.emplace_back(a, a);
  }
  return pairs;
}

// size random values that start 0 to 4 elements into their allocation, misaligned against
// every vector width.
template <typename T>
class RandomColumn {
 public:
  RandomColumn(uint32_t size, std::mt19937_64& rng)
      : shift_(static_cast<uint32_t>(rng() % 5)), storage_(size + shift_) {
    for (T& value : storage_) value = random_value<T>(rng);
  }
  const T* values() const { return storage_.data() + shift_; }

 private:
  uint32_t shift_;
  std::vector<T> storage_;
};

const uint32_t kSizes[] = {0, 1, 7, 8, 9, 15, 16, 17, 31, 32, 33, 63, 64, 65, 100, 65535, 65536};

template <typename T>
void check_find_matches() {
  SCOPED_TRACE(element_type_name<T>());
  std::mt19937_64 rng(42);
  for (uint32_t size : kSizes) {
    const RandomColumn<T> column(size, rng);
    const T* values = column.values();
    std::vector<std::pair<uint32_t, uint32_t>> ranges = {{0, size}};
    for (int i = 0; i < 3 && size > 0; ++i) {
      uint32_t begin = static_cast<uint32_t>(rng() % std::min<uint32_t>(size, 70));
      uint32_t end = begin + static_cast<uint32_t>(rng() % (size - begin + 1));
      ranges.emplace_back(begin, end);
    }
    for (auto [lo, hi] : bound_pairs(values, size, rng)) {
      for (auto [begin, end] : ranges) {
        SCOPED_TRACE(testing::Message() << "size " << size << " [" << begin << ", " << end
                                        << ") lo " << +lo << " hi " << +hi);
        ASSERT_EQ(run_find(values, begin, end, lo, hi), expected_find(values, begin, end, lo, hi));
      }
    }
  }
}

// Random ascending subsets of [0, size) with densities from none to all.
std::vector<uint32_t> random_positions(uint32_t size, double density, std::mt19937_64& rng) {
  std::bernoulli_distribution keep(density);
  std::vector<uint32_t> positions;
  for (uint32_t p = 0; p < size; ++p) {
    if (keep(rng)) positions.push_back(p);
  }
  return positions;
}

template <typename T>
void check_reduce_matches() {
  SCOPED_TRACE(element_type_name<T>());
  std::mt19937_64 rng(7);
  for (uint32_t size : kSizes) {
    const RandomColumn<T> column(size, rng);
    const T* values = column.values();
    for (double density : {0.0, 0.01, 0.3, 0.9, 1.0}) {
      std::vector<uint32_t> positions = random_positions(size, density, rng);
      for (auto [lo, hi] : bound_pairs(values, size, rng)) {
        SCOPED_TRACE(testing::Message() << "size " << size << " density " << density << " lo "
                                        << +lo << " hi " << +hi);
        std::vector<uint32_t> expected = expected_reduce(values, positions, lo, hi);

        std::vector<uint32_t> out(positions.size() + kGuard, kSentinel);
        uint32_t count = reduce_matches(
            values, positions.data(), static_cast<uint32_t>(positions.size()), lo, hi, out.data());
        for (size_t i = positions.size(); i < out.size(); ++i) ASSERT_EQ(out[i], kSentinel);
        out.resize(count);
        ASSERT_EQ(out, expected);

        std::vector<uint32_t> in_place = positions;
        count = reduce_matches(values, in_place.data(), static_cast<uint32_t>(in_place.size()), lo,
                               hi, in_place.data());
        in_place.resize(count);
        ASSERT_EQ(in_place, expected) << "in place";
      }
    }
  }
}

using SimdMatchTest = SimdLevelTest;

TEST_P(SimdMatchTest, FindMatchesAgreesWithALoop) {
  for_each_element_type([]<typename T>() { check_find_matches<T>(); });
}

TEST_P(SimdMatchTest, ReduceMatchesAgreesWithALoop) {
  for_each_element_type([]<typename T>() { check_reduce_matches<T>(); });
}

// The use in a scan: the first restriction finds, the second reduces the match vector in
// place, over a 16-bit code column and a double column.
TEST_P(SimdMatchTest, ConjunctionOfTwoRestrictions) {
  std::mt19937_64 rng(3);
  const uint32_t size = 8192;
  std::vector<uint16_t> codes(size);
  std::vector<double> prices(size);
  for (uint32_t i = 0; i < size; ++i) {
    codes[i] = static_cast<uint16_t>(rng() % 1000);
    prices[i] = static_cast<double>(rng() % 10000) / 100;
  }
  std::vector<uint32_t> matches(size);
  uint32_t count = find_matches<uint16_t>(codes.data(), 100, size, 200, 499, matches.data());
  count = reduce_matches(prices.data(), matches.data(), count, 10.0, 20.5, matches.data());
  matches.resize(count);

  std::vector<uint32_t> expected;
  for (uint32_t i = 100; i < size; ++i) {
    if (codes[i] >= 200 && codes[i] <= 499 && prices[i] >= 10.0 && prices[i] <= 20.5) {
      expected.push_back(i);
    }
  }
  EXPECT_EQ(matches, expected);
  EXPECT_GT(count, 0u);
}

TEST_P(SimdMatchTest, ThePapersExample) {
  // Section 4.2: 3 <= a <= 5 on (0, 1, 5, 2, 3, 1) matches positions (2, 4).
  const int32_t values[] = {0, 1, 5, 2, 3, 1};
  uint32_t out[6];
  ASSERT_EQ(find_matches<int32_t>(values, 0, 6, 3, 5, out), 2u);
  EXPECT_EQ(out[0], 2u);
  EXPECT_EQ(out[1], 4u);
}

TEST_P(SimdMatchTest, NanNeverMatches) {
  const double nan = std::nan("");
  std::vector<double> values(100, nan);
  values[37] = 1.5;
  std::vector<uint32_t> out(values.size());
  const double inf = std::numeric_limits<double>::infinity();
  ASSERT_EQ(find_matches(values.data(), 0, 100, -inf, inf, out.data()), 1u);
  EXPECT_EQ(out[0], 37u);
  EXPECT_EQ(find_matches(values.data(), 0, 100, nan, nan, out.data()), 0u);
  EXPECT_EQ(find_matches(values.data(), 0, 100, 1.0, nan, out.data()), 0u);
}

FLOE_INSTANTIATE_FOR_ALL_LEVELS(SimdMatchTest);

TEST(SimdDispatchTest, BestLevelIsActiveByDefault) {
  // ctest runs each test in its own process, so nothing has chosen a level yet.
  EXPECT_EQ(active_isa(), best_isa());
}

TEST(SimdDispatchTest, LevelsAboveTheBestThrow) {
  const Isa best = best_isa();
  for (int level = static_cast<int>(best) + 1; level <= 255; ++level) {
    auto isa = static_cast<Isa>(level);
    EXPECT_THROW(set_isa(isa), Error) << isa_name(isa);
    EXPECT_EQ(active_isa(), best);
  }
  try {
    set_isa(static_cast<Isa>(static_cast<int>(Isa::kAvx512) + 1));
    FAIL() << "no exception";
  } catch (const Error& error) {
    EXPECT_NE(std::string(error.what()).find(isa_name(best)), std::string::npos) << error.what();
  }
}

TEST(SimdDispatchTest, EveryLevelUpToTheBestCanBeChosen) {
  for (Isa isa : {Isa::kScalar, Isa::kSse42, Isa::kAvx2, Isa::kAvx512}) {
    if (isa > best_isa()) {
      EXPECT_THROW(set_isa(isa), Error) << isa_name(isa);
      continue;
    }
    set_isa(isa);
    EXPECT_EQ(active_isa(), isa);
  }
  set_isa(best_isa());
}

TEST(SimdDispatchTest, LevelNames) {
  EXPECT_STREQ(isa_name(Isa::kScalar), "scalar");
  EXPECT_STREQ(isa_name(Isa::kSse42), "sse4.2");
  EXPECT_STREQ(isa_name(Isa::kAvx2), "avx2");
  EXPECT_STREQ(isa_name(Isa::kAvx512), "avx512");
}

}  // namespace
}  // namespace floe::simd
