// Readers beside one writer at the storage level (issue 10): what lets a reader look at a
// table while a writer changes it, exercised without the statement lock. The chunk directory
// and the column arrays under appends over several chunks, the delete flags and chain heads,
// and the index latch: point lookups and batched scans while the writer inserts entries
// (growing and splitting the tree's nodes) and erases them again. Also run under
// ThreadSanitizer (FLOE_TSAN, docs/architecture.md).
#include <gtest/gtest.h>

#include <atomic>
#include <deque>
#include <random>
#include <thread>
#include <vector>

#include "storage/epoch_manager.h"
#include "storage/table.h"

namespace floe {
namespace {

std::vector<ColumnDef> id_columns() {
  return {{"id", SqlType::big_int(), false}, {"twice", SqlType::big_int(), false}};
}

std::vector<KeyConstraint> primary_key() { return {{"t_pkey", {0}, true}}; }

std::optional<uint64_t> find_id(const Table& table, int64_t id) {
  return table.primary_index()->find(table.primary_index()->key_of({Value::big_int(id)}));
}

std::vector<uint64_t> scan_ids(const Table& table, std::optional<int64_t> low,
                               std::optional<int64_t> high) {
  std::vector<uint64_t> rows;
  auto bound = [](std::optional<int64_t> id) {
    return id ? std::optional(IndexBound{{Value::big_int(*id)}, false}) : std::nullopt;
  };
  table.primary_index()->scan(low ? std::optional(IndexBound{{Value::big_int(*low)}, true})
                                  : std::nullopt,
                              bound(high), [&](uint64_t row_id) {
                                rows.push_back(row_id);
                                return true;
                              });
  return rows;
}

// Runs `reader` on two threads until `writer` returns; returns how often the readers ran.
template <typename Writer, typename Reader>
uint64_t run_beside(Writer writer, Reader reader) {
  std::atomic<bool> done{false};
  std::atomic<uint64_t> rounds{0};
  std::vector<std::thread> readers;
  for (int r = 0; r < 2; ++r)
    readers.emplace_back([&, r] {
      std::mt19937_64 random(r);
      while (!done.load(std::memory_order_acquire)) {
        EpochManager::Pin pin = epochs().pin();  // as a statement does
        reader(random);
        rounds.fetch_add(1, std::memory_order_relaxed);
      }
    });
  writer();
  done.store(true, std::memory_order_release);
  for (std::thread& thread : readers) thread.join();
  return rounds.load();
}

TEST(ConcurrentReadersTest, ReadersSeeEveryPublishedRowWhileAWriterAppendsAndDeletes) {
  Table table("t", id_columns(), primary_key());
  constexpr int64_t kRows = 2 * int64_t{kChunkCapacity} + 1000;  // three chunks
  std::deque<UndoEntry> deletes;  // chain heads of the deleted rows; never move
  const uint64_t rounds = run_beside(
      [&] {
        TableAppender appender(table);
        for (int64_t id = 0; id < kRows; ++id) {
          appender.append_row({Value::big_int(id), Value::big_int(2 * id)});
          if (id % 7 != 0) continue;
          // A delete as a transaction makes it: the undo entry first, then the flag.
          UndoEntry& entry = deletes.emplace_back();
          entry.kind = UndoEntry::Kind::kDelete;
          entry.row_id = static_cast<uint64_t>(id);
          table.versions_of(entry.row_id).set_head(static_cast<uint32_t>(id % kChunkCapacity),
                                                   &entry);
          table.set_row_deleted(entry.row_id, true);
        }
      },
      [&](std::mt19937_64& random) {
        const uint64_t rows = table.row_count();
        if (rows == 0) return;
        uint64_t chunk_rows = 0;
        for (size_t c = 0; c < table.chunk_count(); ++c) chunk_rows += table.chunk(c).size();
        ASSERT_GE(chunk_rows, rows);
        for (int probe = 0; probe < 64; ++probe) {
          // Row ids are dense here: chunks fill up to 2^16 rows.
          const uint64_t row = probe == 0 ? rows - 1 : random() % rows;
          const int64_t id = static_cast<int64_t>(row);
          ASSERT_EQ(table.value_at(row, 0).as_int64(), id);
          ASSERT_EQ(table.value_at(row, 1).as_int64(), 2 * id);
          ASSERT_EQ(find_id(table, id), row);
          if (table.row_deleted(row)) {
            ASSERT_EQ(id % 7, 0);
            const UndoEntry* head = table.chunk(row >> kChunkShift)
                                        .versions()
                                        ->head(static_cast<uint32_t>(row % kChunkCapacity));
            ASSERT_NE(head, nullptr);  // installed before the flag
            ASSERT_EQ(head->row_id, row);
          }
        }
        if (rows < 100) return;
        const int64_t low = static_cast<int64_t>(random() % (rows - 99));
        const std::vector<uint64_t> scanned = scan_ids(table, low, low + 100);
        ASSERT_EQ(scanned.size(), 100u);
        for (size_t i = 0; i < scanned.size(); ++i)
          ASSERT_EQ(scanned[i], static_cast<uint64_t>(low) + i);
      });
  EXPECT_GT(rounds, 0u);
  EXPECT_EQ(table.row_count(), static_cast<uint64_t>(kRows));
  EXPECT_EQ(table.live_row_count(), static_cast<uint64_t>(kRows - (kRows + 6) / 7));
}

TEST(ConcurrentReadersTest, IndexScansVisitEveryStableEntryOnceWhileAWriterInsertsAndErases) {
  Table table("t", id_columns(), primary_key());
  constexpr int64_t kStable = 3000;  // keys 0, 4, 8, ...: rows 0 .. kStable - 1
  TableAppender appender(table);
  for (int64_t i = 0; i < kStable; ++i)
    appender.append_row({Value::big_int(4 * i), Value::big_int(8 * i)});
  std::vector<int64_t> between;  // keys between the stable ones
  for (int64_t i = 0; i < kStable; ++i) between.insert(between.end(), {4 * i + 1, 4 * i + 2});
  std::mt19937_64 shuffle(7);
  const uint64_t rounds = run_beside(
      [&] {
        for (int round = 0; round < 20; ++round) {
          std::shuffle(between.begin(), between.end(), shuffle);
          // Insert in random order (nodes grow and split), then take the rows back, which
          // erases their entries.
          for (int64_t key : between) appender.append_row({Value::big_int(key), Value::big_int(0)});
          table.truncate(kStable);
        }
      },
      [&](std::mt19937_64& random) {
        std::vector<uint64_t> stable;
        for (uint64_t row : scan_ids(table, std::nullopt, std::nullopt))
          if (row < kStable) stable.push_back(row);
        ASSERT_EQ(stable.size(), static_cast<size_t>(kStable));
        for (size_t i = 0; i < stable.size(); ++i) ASSERT_EQ(stable[i], i);
        const int64_t low = static_cast<int64_t>(random() % (kStable - 500));
        stable.clear();
        for (uint64_t row : scan_ids(table, 4 * low, 4 * (low + 500)))
          if (row < kStable) stable.push_back(row);
        ASSERT_EQ(stable.size(), 500u);
        for (size_t i = 0; i < stable.size(); ++i)
          ASSERT_EQ(stable[i], static_cast<uint64_t>(low) + i);
        for (int probe = 0; probe < 100; ++probe) {
          const int64_t id = static_cast<int64_t>(random() % kStable);
          ASSERT_EQ(find_id(table, 4 * id), static_cast<uint64_t>(id));
        }
      });
  EXPECT_GT(rounds, 0u);
  EXPECT_EQ(table.primary_index()->size(), static_cast<size_t>(kStable));
  EXPECT_EQ(scan_ids(table, std::nullopt, std::nullopt).size(), static_cast<size_t>(kStable));
}

}  // namespace
}  // namespace floe
