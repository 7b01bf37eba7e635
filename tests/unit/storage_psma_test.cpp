#include <gtest/gtest.h>

#include <algorithm>
#include <random>
#include <vector>

#include "storage/psma.h"

namespace floe {
namespace {

// Appendix B: i = m + r * 256, m the most significant non-zero byte of the delta and r the
// number of bytes below it.
TEST(PsmaTest, SlotsFollowAppendixB) {
  EXPECT_EQ(psma_slot(0), 0u);
  EXPECT_EQ(psma_slot(1), 1u);
  EXPECT_EQ(psma_slot(0xff), 0xffu);
  EXPECT_EQ(psma_slot(0x100), 0x01u + 256);
  EXPECT_EQ(psma_slot(0x1234), 0x12u + 256);
  EXPECT_EQ(psma_slot(0x12ff), 0x12u + 256);
  EXPECT_EQ(psma_slot(0xffff), 0xffu + 256);
  EXPECT_EQ(psma_slot(0x10000), 0x01u + 2 * 256);
  EXPECT_EQ(psma_slot(0xabcdef), 0xabu + 2 * 256);
  EXPECT_EQ(psma_slot(0xff000000), 0xffu + 3 * 256);
  EXPECT_EQ(psma_slot(0x100000000), 0x01u + 4 * 256);
  EXPECT_EQ(psma_slot(0x8000000000000000), 0x80u + 7 * 256);
  EXPECT_EQ(psma_slot(~uint64_t{0}), 0xffu + 7 * 256);
  EXPECT_EQ(psma_slot_count(4), 1024u);  // the paper's 4-byte example
}

TEST(PsmaTest, SlotsAreMonotoneInTheDelta) {
  uint32_t previous = 0;
  for (uint64_t delta = 0; delta < (1u << 20); ++delta) {
    uint32_t slot = psma_slot(delta);
    ASSERT_GE(slot, previous) << delta;
    previous = slot;
  }
}

// Values 5 7 5 300 6 5 with min 5: deltas 0 2 0 295 1 0. Slot 0 is rows [0, 6), slot 1 row
// 4, slot 2 row 1, and 295 = 0x127 goes to slot 0x01 + 256 = 257: row 3.
std::vector<RowRange> example_table() {
  const std::vector<uint64_t> values = {5, 7, 5, 300, 6, 5};
  std::vector<RowRange> table(psma_slot_count(2));
  build_psma(
      static_cast<uint32_t>(values.size()), nullptr, [&](uint32_t row) { return values[row] - 5; },
      table.data(), table.size());
  return table;
}

TEST(PsmaTest, BuildRecordsFirstAndLastRowPerSlot) {
  std::vector<RowRange> table = example_table();
  EXPECT_EQ(table[0], (RowRange{0, 6}));
  EXPECT_EQ(table[1], (RowRange{4, 5}));
  EXPECT_EQ(table[2], (RowRange{1, 2}));
  EXPECT_EQ(table[257], (RowRange{3, 4}));
  size_t non_empty = 0;
  for (const RowRange& entry : table) non_empty += !entry.empty();
  EXPECT_EQ(non_empty, 4u);
}

TEST(PsmaTest, LookupUnitesTheSlotsOfARange) {
  std::vector<RowRange> table = example_table();
  auto lookup = [&](uint64_t low, uint64_t high) {
    return psma_lookup(table.data(), table.size(), low, high);
  };
  EXPECT_EQ(lookup(0, 0), (RowRange{0, 6}));    // = 5
  EXPECT_EQ(lookup(2, 2), (RowRange{1, 2}));    // = 7
  EXPECT_EQ(lookup(1, 2), (RowRange{1, 5}));    // 6..7
  EXPECT_EQ(lookup(3, 200), (RowRange{0, 0}));  // nothing between 8 and 205
  EXPECT_TRUE(lookup(3, 200).empty());
  EXPECT_EQ(lookup(295, 295), (RowRange{3, 4}));  // = 300
  EXPECT_EQ(lookup(256, 511), (RowRange{3, 4}));  // one slot: 0x100..0x1ff
  EXPECT_EQ(lookup(2, 295), (RowRange{1, 4}));
  EXPECT_EQ(lookup(0, 1u << 20), (RowRange{0, 6}));  // beyond the table: its last slot
}

TEST(PsmaTest, BuildSkipsNullRows) {
  const std::vector<uint64_t> deltas = {3, 0, 3, 0};
  const uint64_t validity = 0b0101;  // rows 1 and 3 are NULL
  std::vector<RowRange> table(psma_slot_count(1));
  build_psma(
      4, &validity, [&](uint32_t row) { return deltas[row]; }, table.data(), table.size());
  EXPECT_TRUE(table[0].empty());
  EXPECT_EQ(table[3], (RowRange{0, 3}));
}

// Every row whose delta lies in [low, high] lies in the looked-up range.
TEST(PsmaTest, LookupContainsEveryMatchingRow) {
  std::mt19937_64 rng(42);
  for (unsigned width : {1u, 2u, 4u, 8u}) {
    const uint64_t limit = width == 8 ? ~uint64_t{0} : (uint64_t{1} << (8 * width)) - 1;
    for (int trial = 0; trial < 20; ++trial) {
      // Small, clustered and full-width deltas.
      const uint64_t spread =
          trial % 3 == 0 ? std::min<uint64_t>(300, limit) : (trial % 3 == 1 ? limit >> 8 : limit);
      std::vector<uint64_t> deltas(3000);
      for (uint64_t& delta : deltas) delta = spread == ~uint64_t{0} ? rng() : rng() % (spread + 1);
      std::vector<RowRange> table(psma_slot_count(width));
      build_psma(
          static_cast<uint32_t>(deltas.size()), nullptr, [&](uint32_t row) { return deltas[row]; },
          table.data(), table.size());
      for (int query = 0; query < 50; ++query) {
        uint64_t a = deltas[rng() % deltas.size()] + (rng() % 3) - 1;
        uint64_t b = query % 2 ? a : deltas[rng() % deltas.size()];
        if (a > limit) a = 0;
        if (a > b) std::swap(a, b);
        RowRange range = psma_lookup(table.data(), table.size(), a, b);
        for (uint32_t row = 0; row < deltas.size(); ++row) {
          if (deltas[row] < a || deltas[row] > b) continue;
          ASSERT_GE(row, range.begin) << width << " " << a << " " << b;
          ASSERT_LT(row, range.end) << width << " " << a << " " << b;
        }
      }
    }
  }
}

}  // namespace
}  // namespace floe
