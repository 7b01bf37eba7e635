// An index scan's morsels: ranges around the listed row ids only, each within one chunk and
// around at most kMorselRows of them.
#include <gtest/gtest.h>

#include "engine/exec/morsel_dispatch.h"

namespace floe {
namespace {

TEST(IndexMorselsTest, RangesAroundTheListedRowsNeverCrossAChunk) {
  const uint64_t chunk1 = uint64_t{1} << kChunkShift;
  std::vector<uint64_t> rows = {5, 9, 60000, chunk1 + 2, 7 * chunk1 + 100};
  std::vector<Morsel> morsels = row_id_morsels(rows);
  ASSERT_EQ(morsels.size(), 3u);
  EXPECT_EQ(morsels[0].begin, 5u);
  EXPECT_EQ(morsels[0].end, 60001u);
  EXPECT_EQ(morsels[1].begin, chunk1 + 2);
  EXPECT_EQ(morsels[1].end, chunk1 + 3);
  EXPECT_EQ(morsels[2].begin, 7 * chunk1 + 100);
  EXPECT_EQ(morsels[2].end, 7 * chunk1 + 101);
  EXPECT_TRUE(row_id_morsels({}).empty());
}

TEST(IndexMorselsTest, AtMostKMorselRowsIdsPerMorsel) {
  std::vector<uint64_t> rows;
  for (uint64_t r = 0; r < kChunkCapacity; r += 2) rows.push_back(r);  // 32768 ids in chunk 0
  std::vector<Morsel> morsels = row_id_morsels(rows);
  ASSERT_EQ(morsels.size(), 32768 / kMorselRows);
  EXPECT_EQ(morsels[0].begin, 0u);
  EXPECT_EQ(morsels[0].end, 2 * (kMorselRows - 1) + 1);
  EXPECT_EQ(morsels[1].begin, 2 * kMorselRows);
}

}  // namespace
}  // namespace floe
