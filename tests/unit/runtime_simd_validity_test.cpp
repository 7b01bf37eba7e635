// IS [NOT] NULL on validity bitmaps (runtime/simd_match.h): select_valid, find_valid and
// find_null at every instruction set level, against a plain loop over the bits.
#include <gtest/gtest.h>

#include <cstdint>
#include <random>
#include <vector>

#include "runtime/simd_match.h"
#include "runtime_simd_test_support.h"

namespace floe::simd {
namespace {

bool bit(const std::vector<uint64_t>& bitmap, uint64_t index) {
  return bitmap[index >> 6] >> (index & 63) & 1;
}

// A bitmap with exactly the words that hold bits [offset, offset + rows), so that reading any
// other word is a heap overflow under AddressSanitizer. density: the share of set bits.
std::vector<uint64_t> random_bitmap(uint32_t offset, uint32_t rows, double density,
                                    std::mt19937_64& rng) {
  std::vector<uint64_t> bitmap((uint64_t{offset} + rows + 63) / 64);
  std::bernoulli_distribution set(density);
  for (uint64_t i = 0; i < bitmap.size() * 64; ++i) {
    if (set(rng)) bitmap[i >> 6] |= uint64_t{1} << (i & 63);
  }
  return bitmap;
}

using SimdValidityTest = SimdLevelTest;

TEST_P(SimdValidityTest, FindValidAndFindNullAgreeWithALoop) {
  std::mt19937_64 rng(11);
  for (uint32_t rows : {1u, 7u, 8u, 9u, 63u, 64u, 65u, 127u, 129u, 1000u, 65536u}) {
    for (double density : {0.0, 0.1, 0.5, 0.97, 1.0}) {
      uint32_t offset = static_cast<uint32_t>(rng() % 130);
      std::vector<uint64_t> bitmap = random_bitmap(offset, rows, density, rng);
      uint32_t begin = static_cast<uint32_t>(rng() % std::min(rows, 70u));
      for (uint32_t end : {rows, begin + static_cast<uint32_t>(rng() % (rows - begin + 1))}) {
        SCOPED_TRACE(testing::Message() << "rows " << rows << " offset " << offset << " [" << begin
                                        << ", " << end << ") density " << density);
        std::vector<uint32_t> valid, null;
        for (uint32_t row = begin; row < end; ++row) {
          (bit(bitmap, uint64_t{row} + offset) ? valid : null).push_back(row);
        }
        std::vector<uint32_t> out(end - begin);
        out.resize(find_valid(bitmap.data(), offset, begin, end, out.data()));
        EXPECT_EQ(out, valid);
        out.assign(end - begin, 0);
        out.resize(find_null(bitmap.data(), offset, begin, end, out.data()));
        EXPECT_EQ(out, null);
      }
    }
  }
}

TEST_P(SimdValidityTest, SelectValidKeepsValidPositionsInPlace) {
  std::mt19937_64 rng(12);
  const uint32_t rows = 5000;
  for (uint32_t offset : {0u, 1u, 63u, 64u, 100u}) {
    std::vector<uint64_t> bitmap = random_bitmap(offset, rows, 0.6, rng);
    std::vector<uint32_t> positions;
    for (uint32_t row = 0; row < rows; ++row) {
      if (rng() % 3 == 0) positions.push_back(row);
    }
    std::vector<uint32_t> expected;
    for (uint32_t p : positions) {
      if (bit(bitmap, uint64_t{p} + offset)) expected.push_back(p);
    }
    uint32_t count = select_valid(bitmap.data(), offset, positions.data(),
                                  static_cast<uint32_t>(positions.size()), positions.data());
    positions.resize(count);
    EXPECT_EQ(positions, expected) << "offset " << offset;
  }
}

FLOE_INSTANTIATE_FOR_ALL_LEVELS(SimdValidityTest);

}  // namespace
}  // namespace floe::simd
