// MVCC storage (storage/row_versions.h, engine/txn/): version chains, garbage collection
// and the column arrays that never move under a reader.
#include <gtest/gtest.h>

#include "engine/txn/transaction_manager.h"
#include "runtime/table_scanner.h"
#include "storage/epoch_manager.h"
#include "storage/table.h"
#include "tests/unit/scanner_values.h"

namespace floe {
namespace {

std::vector<int64_t> scan_values(const Table& table, const Snapshot& snapshot) {
  ScanSettings settings;
  settings.snapshot = snapshot;
  TableScanner scanner(table, {0}, {}, settings);
  scanner.open(0, uint64_t{table.chunk_count()} << kChunkShift);
  return test::drain_bigint_column(scanner);
}

std::unique_ptr<Table> make_table(int64_t rows) {
  auto table =
      std::make_unique<Table>("t", std::vector<ColumnDef>{{"x", SqlType::big_int(), false}});
  TableAppender appender(*table);
  for (int64_t i = 0; i < rows; ++i) appender.append_row({Value::big_int(i)});
  return table;
}

TEST(TxnVersionsTest, HotArraysDoNotMoveWhileAppending) {
  Table table("t", {{"x", SqlType::big_int(), false}});
  TableAppender appender(table);
  appender.append_row({Value::big_int(7)});
  const uint8_t* before = table.chunk(0).hot()->data(0);
  const size_t retired = epochs().retired_count();
  {
    EpochManager::Pin reader = epochs().pin();  // a statement reading the table
    for (int i = 0; i < 5000; ++i) appender.append_row({Value::big_int(i)});
    // The arrays grew, but the old one stays readable while the reader runs.
    EXPECT_NE(table.chunk(0).hot()->data(0), before);
    EXPECT_EQ(*reinterpret_cast<const int64_t*>(before), 7);
    EXPECT_GT(epochs().retired_count(), retired);
  }
  EXPECT_EQ(epochs().retired_count(), retired);  // freed when the reader unpinned
}

TEST(TxnVersionsTest, CleanChunksHaveNoVersions) {
  auto owned = make_table(10);
  Table& table = *owned;
  EXPECT_EQ(table.chunk(0).versions(), nullptr);
}

TEST(TxnVersionsTest, ReadersSeeTheirSnapshotAndGarbageCollectionCleansUp) {
  auto owned = make_table(100);
  Table& table = *owned;
  TransactionManager manager;
  auto reader = manager.begin();
  auto writer = manager.begin();
  writer->update_row(table, 5, {0}, {Value::big_int(500)});
  writer->delete_row(table, 6);
  EXPECT_EQ(scan_values(table, writer->snapshot())[5], 500);
  EXPECT_EQ(scan_values(table, writer->snapshot()).size(), 99u);
  manager.commit(std::move(writer));
  // The reader started before the commit: it still sees the old row 5 and row 6.
  std::vector<int64_t> old = scan_values(table, reader->snapshot());
  ASSERT_EQ(old.size(), 100u);
  EXPECT_EQ(old[5], 5);
  EXPECT_EQ(old[6], 6);
  EXPECT_EQ(manager.uncollected(), 1u);
  manager.commit(std::move(reader));
  EXPECT_EQ(manager.uncollected(), 0u);
  ASSERT_NE(table.chunk(0).versions(), nullptr);  // the delete flag stays
  EXPECT_EQ(table.chunk(0).versions()->chained_rows(), 0u);
  std::vector<int64_t> now = scan_values(table, Snapshot{});
  ASSERT_EQ(now.size(), 99u);
  EXPECT_EQ(now[5], 500);
  EXPECT_EQ(now[6], 7);
}

TEST(TxnVersionsTest, RollbackRestoresValuesAndDropsVersions) {
  auto owned = make_table(70000);  // two chunks
  Table& table = *owned;
  TransactionManager manager;
  auto writer = manager.begin();
  writer->update_row(table, 1, {0}, {Value::big_int(-1)});
  writer->delete_row(table, uint64_t{1} << kChunkShift | 3);
  const uint64_t rows = table.row_count();
  {
    Transaction::Append append(*writer, table);
    TableAppender(table).append_row({Value::big_int(42)});
  }
  manager.abort(std::move(writer));
  EXPECT_EQ(table.row_count(), rows);  // the appended row was the tail: truncated
  EXPECT_EQ(table.value_at(1, 0).as_int64(), 1);
  EXPECT_FALSE(table.row_deleted(uint64_t{1} << kChunkShift | 3));
  EXPECT_EQ(scan_values(table, Snapshot{}).size(), 70000u);
}

}  // namespace
}  // namespace floe
