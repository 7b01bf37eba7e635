#include <gtest/gtest.h>

#include <optional>
#include <vector>

#include "runtime/runtime_abi.h"
#include "runtime/scan_restriction.h"
#include "runtime/table_scanner.h"
#include "storage/table.h"

namespace floe {
namespace {

constexpr uint64_t kRows = 2 * uint64_t{kChunkCapacity} + 1000;  // three chunks, last partial

// id BIGINT NOT NULL = row number; val INTEGER, NULL on every 7th row, else 3 * row.
class TableScannerTest : public ::testing::Test {
 protected:
  TableScannerTest()
      : table_("t", {{"id", SqlType::big_int(), false}, {"val", SqlType::integer(), true}}, {}) {
    TableAppender appender(table_);
    for (uint64_t row = 0; row < kRows; ++row) {
      appender.begin_row();
      int64_t id = static_cast<int64_t>(row);
      appender.set(0, &id);
      if (row % 7 == 0) {
        appender.set_null(1);
      } else {
        int32_t val = static_cast<int32_t>(3 * row);
        appender.set(1, &val);
      }
      appender.end_row();
    }
  }

  struct Row {
    int64_t id;
    std::optional<int32_t> val;
  };

  // Reads [begin, end) through the ABI entry points, as generated code does, checking the
  // batch invariants on the way.
  std::vector<Row> scan(uint64_t begin, uint64_t end, uint32_t vector_size) {
    TableScanner cursor(table_, {1, 0}, {}, ScanSettings{vector_size, true, true, {}});
    EXPECT_TRUE(floe_rt_scan_open(&cursor, begin, end));
    std::vector<Row> rows;
    FloeScanBatch batch;
    while (uint32_t count = floe_rt_scan_next(&cursor, &batch)) {
      EXPECT_EQ(count, batch.count);
      EXPECT_LE(count, vector_size);
      EXPECT_LE(batch.validity_offset + count, kChunkCapacity);  // never crosses a chunk
      EXPECT_EQ(batch.validity[1], nullptr);                     // NOT NULL: no bitmap
      EXPECT_NE(batch.validity[0], nullptr);
      const auto* ids = static_cast<const int64_t*>(batch.columns[1]);
      const auto* vals = static_cast<const int32_t*>(batch.columns[0]);
      for (uint32_t i = 0; i < count; ++i) {
        uint32_t bit = batch.validity_offset + i;
        bool valid = batch.validity[0][bit >> 6] >> (bit & 63) & 1;
        rows.push_back({ids[i], valid ? std::optional<int32_t>(vals[i]) : std::nullopt});
      }
    }
    return rows;
  }

  static void expect_rows(const std::vector<Row>& rows, const std::vector<uint64_t>& expected_ids) {
    ASSERT_EQ(rows.size(), expected_ids.size());
    for (size_t i = 0; i < rows.size(); ++i) {
      uint64_t id = expected_ids[i];
      ASSERT_EQ(rows[i].id, static_cast<int64_t>(id));
      if (id % 7 == 0) {
        ASSERT_FALSE(rows[i].val.has_value()) << id;
      } else {
        ASSERT_EQ(rows[i].val, static_cast<int32_t>(3 * id)) << id;
      }
    }
  }

  static std::vector<uint64_t> ids(uint64_t first, uint64_t last) {
    std::vector<uint64_t> out;
    for (uint64_t id = first; id < last; ++id) out.push_back(id);
    return out;
  }

  Table table_;
};

TEST_F(TableScannerTest, ScansAllChunks) {
  ASSERT_EQ(table_.chunk_count(), 3u);
  expect_rows(scan(0, uint64_t{3} << kChunkShift, 8192), ids(0, kRows));
}

TEST_F(TableScannerTest, RangeStartingMidChunkCrossesIntoNextChunk) {
  uint64_t begin = 60000, end = (uint64_t{1} << kChunkShift) | 100;
  expect_rows(scan(begin, end, 1000), ids(60000, kChunkCapacity + 100));
}

TEST_F(TableScannerTest, RangePastTheLastRowIsCut) {
  uint64_t begin = (uint64_t{2} << kChunkShift) | 500;
  expect_rows(scan(begin, uint64_t{9} << kChunkShift, 8192), ids(2 * kChunkCapacity + 500, kRows));
}

TEST_F(TableScannerTest, BatchesAreZeroCopyViewsOfTheChunk) {
  TableScanner cursor(table_, {0, 1}, {}, ScanSettings{100, true, true, {}});
  ASSERT_TRUE(cursor.open((uint64_t{1} << kChunkShift) | 7, uint64_t{2} << kChunkShift));
  FloeScanBatch batch;
  ASSERT_EQ(cursor.next(batch), 100u);
  const HotChunk& chunk = *table_.chunk(1).hot();
  EXPECT_EQ(batch.validity_offset, 7u);
  EXPECT_EQ(batch.columns[0], chunk.data(0) + 7 * sizeof(int64_t));
  EXPECT_EQ(batch.columns[1], chunk.data(1) + 7 * sizeof(int32_t));
  EXPECT_EQ(batch.validity[1], chunk.validity(1));
}

// With a restriction, a hot chunk's batch selects its matches from the chunk's arrays,
// starting at the first match: positions span the matches, not the chunk up to them, so the
// vectors computed over a batch deep in a chunk stay as small as the batch (bench/RESULTS.md
// "X100 experiments", hot chunks at small vector sizes).
TEST_F(TableScannerTest, RestrictedBatchesOfHotChunksStartAtTheirFirstMatch) {
  ScanRestriction restriction;  // id >= 60000 and id < 60100, in chunk 0
  restriction.column = 0;
  restriction.low = ScanRestriction::Bound{Value::big_int(60000), true};
  restriction.high = ScanRestriction::Bound{Value::big_int(60100), false};
  TableScanner cursor(table_, {0, 1}, {restriction}, ScanSettings{16, true, true, {}});
  ASSERT_TRUE(cursor.open(0, kChunkCapacity));
  const HotChunk& chunk = *table_.chunk(0).hot();
  FloeScanBatch batch;
  int64_t next_id = 60000;
  while (uint32_t count = cursor.next(batch)) {
    ASSERT_NE(batch.selection, nullptr);
    EXPECT_EQ(batch.selection[0], 0u);
    const uint32_t first = batch.validity_offset;
    EXPECT_EQ(batch.columns[0], chunk.data(0) + first * sizeof(int64_t));
    const auto* ids = static_cast<const int64_t*>(batch.columns[0]);
    for (uint32_t i = 0; i < count; ++i) EXPECT_EQ(ids[batch.selection[i]], next_id++);
    EXPECT_LT(batch.selection[count - 1], 16u);
  }
  EXPECT_EQ(next_id, 60100);
}

TEST_F(TableScannerTest, EmptyAndInvalidRanges) {
  TableScanner cursor(table_, {0});
  FloeScanBatch batch;
  ASSERT_TRUE(cursor.open(5, 5));
  EXPECT_EQ(cursor.next(batch), 0u);
  EXPECT_EQ(cursor.next(batch), 0u);
  EXPECT_FALSE(cursor.open(6, 5));
  // Reopening restarts the cursor.
  ASSERT_TRUE(cursor.open(3, 5));
  ASSERT_EQ(cursor.next(batch), 2u);
  EXPECT_EQ(static_cast<const int64_t*>(batch.columns[0])[0], 3);
  EXPECT_EQ(cursor.next(batch), 0u);
}

TEST(TableScannerEmptyTest, EmptyTableYieldsNothing) {
  Table table("e", {{"a", SqlType::integer(), true}}, {});
  TableScanner cursor(table, {0});
  FloeScanBatch batch;
  ASSERT_TRUE(cursor.open(0, uint64_t{1} << kChunkShift));
  EXPECT_EQ(cursor.next(batch), 0u);
}

}  // namespace
}  // namespace floe
