// Shared by the match-kernel tests (runtime/simd_match.h): a fixture that runs each test once
// per instruction set level, skipping (and naming) the levels this CPU cannot run, and
// seeded random values that favour each type's extremes.
#pragma once

#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <limits>
#include <random>
#include <string>
#include <type_traits>

#include "runtime/simd_match.h"

namespace floe::simd {

class SimdLevelTest : public ::testing::TestWithParam<Isa> {
 protected:
  void SetUp() override {
    if (GetParam() > best_isa()) {
      GTEST_SKIP() << "this CPU cannot run the " << isa_name(GetParam())
                   << " kernels (best: " << isa_name(best_isa()) << ")";
    }
    set_isa(GetParam());
  }
  void TearDown() override { set_isa(best_isa()); }
};

inline std::string level_test_name(const ::testing::TestParamInfo<Isa>& info) {
  switch (info.param) {
    case Isa::kScalar:
      return "Scalar";
    case Isa::kSse42:
      return "Sse42";
    case Isa::kAvx2:
      return "Avx2";
    case Isa::kAvx512:
      return "Avx512";
  }
  return "Unknown";
}

#define FLOE_INSTANTIATE_FOR_ALL_LEVELS(Fixture)                               \
  INSTANTIATE_TEST_SUITE_P(                                                    \
      Levels, Fixture,                                                         \
      ::testing::Values(::floe::simd::Isa::kScalar, ::floe::simd::Isa::kSse42, \
                        ::floe::simd::Isa::kAvx2, ::floe::simd::Isa::kAvx512), \
      ::floe::simd::level_test_name)

// Calls f.template operator()<T>() for every element type of the kernels.
template <typename F>
void for_each_element_type(F&& f) {
  f.template operator()<uint8_t>();
  f.template operator()<uint16_t>();
  f.template operator()<uint32_t>();
  f.template operator()<uint64_t>();
  f.template operator()<int16_t>();
  f.template operator()<int32_t>();
  f.template operator()<int64_t>();
  f.template operator()<double>();
}

template <typename T>
const char* element_type_name() {
  if constexpr (std::is_same_v<T, uint8_t>) return "uint8_t";
  if constexpr (std::is_same_v<T, uint16_t>) return "uint16_t";
  if constexpr (std::is_same_v<T, uint32_t>) return "uint32_t";
  if constexpr (std::is_same_v<T, uint64_t>) return "uint64_t";
  if constexpr (std::is_same_v<T, int16_t>) return "int16_t";
  if constexpr (std::is_same_v<T, int32_t>) return "int32_t";
  if constexpr (std::is_same_v<T, int64_t>) return "int64_t";
  if constexpr (std::is_same_v<T, double>) return "double";
}

// One in four values is an extreme of the type (for doubles also NaN, infinities, -0.0).
template <typename T>
T random_value(std::mt19937_64& rng) {
  using Limits = std::numeric_limits<T>;
  uint64_t bits = rng();
  if constexpr (std::is_floating_point_v<T>) {
    const T specials[] = {std::nan(""),  Limits::infinity(), -Limits::infinity(), -0.0, 0.0,
                          Limits::max(), Limits::lowest(),   Limits::denorm_min()};
    if (bits % 4 == 0) return specials[(bits >> 8) % std::size(specials)];
    // Small integers and halves, so that equal values are common.
    return static_cast<T>(static_cast<int64_t>(bits >> 32) % 2001 - 1000) / 2;
  } else {
    const T specials[] = {Limits::min(),
                          Limits::max(),
                          static_cast<T>(Limits::min() + 1),
                          static_cast<T>(Limits::max() - 1),
                          T{0},
                          static_cast<T>(-1)};
    if (bits % 4 == 0) return specials[(bits >> 8) % std::size(specials)];
    return static_cast<T>(bits >> 16);
  }
}

}  // namespace floe::simd
