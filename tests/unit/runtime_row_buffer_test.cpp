#include <gtest/gtest.h>

#include <cstring>
#include <utility>
#include <vector>

#include "runtime/query_context.h"
#include "runtime/row_buffer.h"
#include "runtime/runtime_abi.h"

namespace floe {
namespace {

struct Row {
  int32_t key;
  int32_t sequence;  // append order, to check stability
  int64_t payload;
};

int32_t by_key(const uint8_t* a, const uint8_t* b, const void*) {
  int32_t x = reinterpret_cast<const Row*>(a)->key, y = reinterpret_cast<const Row*>(b)->key;
  return (x > y) - (x < y);
}

// Rows with keys 9, 8, ..., 0, 9, 8, ... appended alternately by two workers.
RowBuffer make_buffer(QueryContext& query, int rows) {
  RowBuffer buffer(sizeof(Row), 2);
  for (int i = 0; i < rows; ++i) {
    uint8_t* slot = floe_rt_rows_append(&buffer, &query.worker(static_cast<uint32_t>(i % 2)));
    Row row;
    std::memcpy(&row, slot, sizeof row);
    EXPECT_EQ(row.payload, 0);  // zeroed
    row = Row{9 - i % 10, i, i * 100};
    std::memcpy(slot, &row, sizeof row);
  }
  buffer.finish();
  return buffer;
}

std::vector<Row> rows_of(RowBuffer& buffer) {
  std::vector<Row> rows(buffer.size());
  for (uint64_t i = 0; i < buffer.size(); ++i)
    std::memcpy(&rows[i], floe_rt_rows_at(&buffer, i), sizeof(Row));
  return rows;
}

TEST(RowBufferTest, FinishGathersWorkerByWorker) {
  QueryContext query(2);
  RowBuffer buffer = make_buffer(query, 1000);
  EXPECT_EQ(buffer.row_size(), sizeof(Row));
  std::vector<Row> rows = rows_of(buffer);
  ASSERT_EQ(rows.size(), 1000u);
  for (int i = 0; i < 500; ++i) {
    EXPECT_EQ(rows[i].sequence, 2 * i);
    EXPECT_EQ(rows[500 + i].sequence, 2 * i + 1);
  }
}

TEST(RowBufferTest, SortIsStable) {
  QueryContext query(2);
  RowBuffer buffer = make_buffer(query, 1000);
  buffer.sort(&by_key);
  std::vector<Row> rows = rows_of(buffer);
  for (size_t i = 1; i < rows.size(); ++i) {
    ASSERT_LE(rows[i - 1].key, rows[i].key);
    // Equal keys keep the order finish() produced: worker 0's (even) rows, then worker 1's.
    if (rows[i - 1].key == rows[i].key) {
      auto finish_order = [](const Row& row) { return std::pair(row.sequence % 2, row.sequence); };
      ASSERT_LT(finish_order(rows[i - 1]), finish_order(rows[i]));
    }
  }
  EXPECT_EQ(rows.front().key, 0);
  EXPECT_EQ(rows.back().key, 9);
}

// An interpreter's comparator: one function, the order it sorts in passed as the context.
int32_t by_key_in(const uint8_t* a, const uint8_t* b, const void* context) {
  int32_t sign = *static_cast<const int32_t*>(context);
  return sign * by_key(a, b, nullptr);
}

TEST(RowBufferTest, SortPassesTheComparatorsContext) {
  QueryContext query(2);
  RowBuffer buffer = make_buffer(query, 100);
  const int32_t descending = -1;
  buffer.sort(RowComparator(&by_key_in, &descending));
  std::vector<Row> rows = rows_of(buffer);
  for (size_t i = 1; i < rows.size(); ++i) ASSERT_GE(rows[i - 1].key, rows[i].key);
  EXPECT_EQ(rows.front().key, 9);
  EXPECT_EQ(rows.back().key, 0);
}

TEST(RowBufferTest, LimitAndOffset) {
  QueryContext query(2);
  RowBuffer buffer = make_buffer(query, 100);  // keys 0..9, ten rows each
  buffer.sort(&by_key);
  buffer.apply_limit(15, 10);
  std::vector<Row> rows = rows_of(buffer);
  ASSERT_EQ(rows.size(), 10u);
  for (size_t i = 0; i < 5; ++i) EXPECT_EQ(rows[i].key, 1);
  for (size_t i = 5; i < 10; ++i) EXPECT_EQ(rows[i].key, 2);

  buffer.apply_limit(8, std::nullopt);  // offset only
  EXPECT_EQ(buffer.size(), 2u);
  buffer.apply_limit(5, 3);  // offset past the end
  EXPECT_EQ(buffer.size(), 0u);
}

TEST(RowBufferTest, LimitLargerThanRowsAndLimitZero) {
  QueryContext query(2);
  RowBuffer buffer = make_buffer(query, 20);
  buffer.apply_limit(0, 1000);
  EXPECT_EQ(buffer.size(), 20u);
  buffer.apply_limit(0, 0);
  EXPECT_EQ(buffer.size(), 0u);
}

TEST(RowBufferTest, EmptyBuffer) {
  RowBuffer buffer(24, 1);
  buffer.finish();
  buffer.sort(&by_key);
  buffer.apply_limit(1, 1);
  EXPECT_EQ(buffer.size(), 0u);
}

}  // namespace
}  // namespace floe
