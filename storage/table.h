// A table: its schema and its rows as a list of chunks of up to 2^16 rows, each hot or frozen
// (storage/table_chunk.h). Row id = chunk number << 16 | row in chunk (DESIGN.md "Data
// model"). Inserts append to the last chunk while it is hot and has room; after a frozen or
// full chunk they start a new hot chunk.
#pragma once

#include <algorithm>
#include <atomic>
#include <cstdint>
#include <functional>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

#include "storage/chunk_directory.h"
#include "storage/table_chunk.h"
#include "storage/table_constraints.h"
#include "storage/unique_index.h"
#include "storage/value.h"

namespace floe {

struct ColumnStatistics;  // storage/table_statistics.h

class Table {
 public:
  // `keys`: the PRIMARY KEY and UNIQUE constraints, each enforced through its own index.
  Table(std::string name, std::vector<ColumnDef> columns, std::vector<KeyConstraint> keys = {});

  const std::string& name() const { return name_; }
  const std::vector<ColumnDef>& columns() const { return columns_; }
  // The primary key's columns; empty when there is none.
  const std::vector<size_t>& primary_key() const;
  // One per PRIMARY KEY / UNIQUE constraint, the primary key first.
  const std::vector<std::unique_ptr<UniqueIndex>>& unique_indexes() const { return indexes_; }
  const UniqueIndex* primary_index() const;
  // The index (of a constraint or CREATE INDEX) named `name`, if the table has it.
  const UniqueIndex* find_index(std::string_view name) const;
  // CREATE INDEX: builds an index over the existing rows, in parallel, and keeps it from then
  // on. Throws "could not create unique index" when a unique index meets a duplicate key.
  const UniqueIndex& add_index(KeyConstraint index);
  // DROP INDEX: false when the table has no index of that name.
  bool drop_index(std::string_view name);
  std::optional<size_t> find_column(std::string_view name) const;
  // Defaults, identity columns, CHECK constraints and foreign keys (one default per column).
  const TableConstraints& constraints() const { return constraints_; }
  TableConstraints& constraints() { return constraints_; }

  // ALTER TABLE (engine/api/alter_table_statement.cpp). Nothing may scan or append meanwhile.
  void rename(std::string name) { name_ = std::move(name); }
  void rename_column(size_t column, std::string name) { columns_[column].name = std::move(name); }
  // Rewrites every row for new `columns` and `keys`: new column i takes old column
  // sources[i], or NULL when that is nullopt, and then `complete` may fill in and check the
  // row. Deleted rows are dropped, so row ids may change: the caller makes sure that no
  // version chain needs them (has_version_chains). Chunk by chunk: a frozen chunk is frozen
  // again (a Data Block cannot gain a column in place). The indexes are rebuilt and `constraints` (one default per new
  // column) replaces the constraints. Throws, leaving the table as it was, when `complete`
  // throws or a value breaks NOT NULL.
  void change_columns(std::vector<ColumnDef> columns, std::vector<KeyConstraint> keys,
                      const std::vector<std::optional<size_t>>& sources,
                      const std::function<void(std::vector<Value>& row)>& complete,
                      TableConstraints constraints);

  uint64_t row_count() const { return row_count_.load(std::memory_order_acquire); }
  // The rows not deleted in the newest state (row_count() counts deleted rows too): what
  // the optimizer's estimates start from.
  uint64_t live_row_count() const;
  // Chunks never move (storage/chunk_directory.h): a reader may look one up while a writer
  // appends.
  size_t chunk_count() const { return chunks_.size(); }
  const TableChunk& chunk(size_t index) const { return chunks_[index]; }
  // The value of a column at a row id (chunk << 16 | row), hot or frozen, in O(1).
  Value value_at(uint64_t row_id, size_t column) const {
    return chunks_[row_id >> kChunkShift].value(
        static_cast<uint32_t>(row_id & (kChunkCapacity - 1)), column, columns_[column].type);
  }
  // For freezing a chunk directly (TableChunk::freeze, which keeps the row order: the
  // indexes stay valid); a chunk's address is stable.
  TableChunk& chunk(size_t index) { return chunks_[index]; }

  // Freezes the hot chunks among `chunks` (indexes), in parallel, each sorted on
  // `sort_column` when given (TableChunk::freeze; sorting moves rows, so the indexes are
  // rebuilt). Nothing may scan or append meanwhile.
  void freeze_chunks(const std::vector<size_t>& chunks, std::optional<size_t> sort_column = {});
  // Every hot chunk, the partial last one included: later inserts start a new chunk.
  void freeze_all(std::optional<size_t> sort_column = {});
  // The full hot chunks (bulk loads freeze their chunks this way).
  void freeze_full_chunks();
  // The full hot chunks that became full at or before `cutoff` (the background freezer).
  std::vector<size_t> full_chunks_filled_before(std::chrono::steady_clock::time_point cutoff) const;

  // Readers beside a writer (engine/txn/reader_latch.h): rows a transaction appends are
  // published (row_count, chunk sizes, index entries) before their undo entries tell readers
  // that they are not theirs (Transaction::record_append). In between, from hide_appends()
  // before the first row to show_appends() after the undo entries, readers take every row id
  // from hidden_from() on as absent: those rows belong to the writer's running statement,
  // which no other snapshot sees. Row ids grow with each append, so one bound covers them.
  void hide_appends();
  void show_appends() { hidden_from_.store(kNothingHidden, std::memory_order_release); }
  // Read after the chunk's size: a row published by then and hidden was hidden before.
  uint64_t hidden_from() const { return hidden_from_.load(std::memory_order_acquire); }
  static constexpr uint64_t kNothingHidden = ~uint64_t{0};
  // The rows of a chunk that a reader may read now: its size, less the hidden rows. Read it
  // before the chunk's arrays (an array read after holds at least these rows).
  uint32_t readable_rows(size_t chunk) const {
    const uint64_t base = uint64_t{chunk} << kChunkShift;
    const uint64_t end = base + chunks_[chunk].size();
    return static_cast<uint32_t>(std::max(base, std::min(end, hidden_from())) - base);
  }

  // Removes every row at or after `row_count`, counting rows in chunk order, and their index
  // entries: how a failed statement takes back the rows it appended (all in hot chunks).
  void truncate(uint64_t row_count);
  // Removes every row, frozen ones too, and empties the indexes (TRUNCATE).
  void remove_all_rows();
  // Indexes every row into the empty indexes: after a bulk load that appended with
  // IndexMaintenance::kDeferred. Throws the unique violation of a duplicate key, and then
  // leaves the indexes empty (the caller truncates the rows).
  void build_indexes();

  // ---- in-place changes (MVCC, engine/txn/): the caller keeps the undo information ----
  // The chunk's versions, created with the chunk's first change.
  ChunkVersions& versions_of(uint64_t row_id);
  // Whether the row's newest state is deleted.
  bool row_deleted(uint64_t row_id) const;
  // Sets or clears a row's delete flag (hot or frozen).
  void set_row_deleted(uint64_t row_id, bool deleted);
  // Overwrites columns of a row of a hot chunk; values have the columns' types (NOT NULL is
  // the caller's check). No key column of a unique index may be among them: the index leaves
  // read keys from the rows (an update of a key moves the row, Transaction::update_moves_row).
  void write_row(uint64_t row_id, const std::vector<uint32_t>& columns,
                 const std::vector<Value>& values);
  // Removes the row's entries from the unique indexes (a rolled-back insert); index_row adds
  // them (throwing the unique violation, with nothing added, when a live row holds the key).
  void unindex_row(uint64_t row_id);
  void index_row(uint64_t row_id);
  // Garbage collection of index entries: a deleted row keeps its entries while a snapshot may
  // still see it (storage/unique_index.h); once garbage collection cut its delete from the
  // version chain every snapshot sees the delete, and note_dead_row queues the row. The next
  // delete on the table (a writer, Transaction::delete_row) calls unindex_dead_rows, which
  // removes the queued rows' entries that are still theirs, so that index scans do not walk
  // over ever more deleted rows (TPC-C's Delivery takes the oldest new order of a district).
  // A queued row id that meanwhile names another row (TRUNCATE, ALTER TABLE, a sorted
  // freeze) is removed only if that row is deleted for every snapshot too.
  void note_dead_row(uint64_t row_id);
  void unindex_dead_rows();
  // Whether any chunk has a version chain (changes not yet garbage collected).
  bool has_version_chains() const;

  // Bumped by every change of the rows: per appended, updated, deleted or truncated row.
  uint64_t modification_count() const {
    return modification_count_.load(std::memory_order_relaxed);
  }
  // Statistics of one column's rows: computed on first use and cached until the table changed
  // significantly, by PostgreSQL's autovacuum analyze rule: until more than
  // kStatisticsRefreshRows + kStatisticsRefreshFraction x (rows when computed) rows were
  // appended, updated, deleted or taken back since, and at once on TRUNCATE and ALTER TABLE.
  // Statistics only steer plans, so slightly old ones never give wrong answers; recomputing
  // them after every change would scan the table per statement. Thread-safe.
  std::shared_ptr<const ColumnStatistics> column_statistics(size_t column) const;
  // Brings the statistics of every column up to the current rows (computing those not cached
  // or changed since at all), columns in parallel. ANALYZE and bulk loads call it, so that
  // planning the first query does not pay for the scans.
  void analyze() const;
  static constexpr double kStatisticsRefreshRows = 50;       // PostgreSQL's analyze_threshold
  static constexpr double kStatisticsRefreshFraction = 0.1;  // analyze_scale_factor

 private:
  friend class TableAppender;
  HotChunk& last_chunk_with_room();
  // Empty indexes for `keys`, the primary key first.
  void set_keys(std::vector<KeyConstraint> keys);

  std::string name_;
  std::vector<ColumnDef> columns_;
  std::vector<std::unique_ptr<UniqueIndex>> indexes_;
  ChunkDirectory chunks_;
  TableConstraints constraints_;
  // Published with a release store once the rows' values and index entries are written.
  std::atomic<uint64_t> row_count_{0};
  std::atomic<uint64_t> modification_count_{0};
  std::atomic<uint64_t> hidden_from_{kNothingHidden};
  // One writer at a time: a plain store, atomic only for readers beside it.
  void count_changes(uint64_t changes) {
    modification_count_.store(modification_count_.load(std::memory_order_relaxed) + changes,
                              std::memory_order_relaxed);
  }
  // note_dead_row's queue: garbage collection fills it, a writer drains it.
  std::mutex dead_rows_mutex_;
  std::vector<uint64_t> dead_rows_;

  // Under statistics_mutex_: whether the cache may serve (exact: no change at all since).
  bool statistics_usable(bool exact) const;
  // Under statistics_mutex_: an empty cache for the rows of now.
  void reset_statistics() const;
  void invalidate_statistics();

  mutable std::mutex statistics_mutex_;
  mutable uint64_t statistics_version_ = 0;  // modification_count_ the cache belongs to
  mutable uint64_t statistics_rows_ = 0;     // row_count_ then
  mutable std::vector<std::shared_ptr<const ColumnStatistics>> statistics_;  // per column
};

// Whether TableAppender::end_row checks and updates the table's unique indexes, or leaves
// them to Table::build_indexes after a bulk load into an empty table.
enum class IndexMaintenance { kPerRow, kDeferred };

// Appends rows one at a time. Values must already have the column's type; long strings are
// copied into the table's string heap. end_row enforces the PRIMARY KEY and UNIQUE
// constraints: a violation throws, and the row is not appended.
class TableAppender {
 public:
  explicit TableAppender(Table& table, IndexMaintenance indexes = IndexMaintenance::kPerRow)
      : table_(table), indexes_(indexes) {}

  void begin_row();
  void set_null(size_t column);
  // `physical` points at a value of the column's PhysicalType.
  void set(size_t column, const void* physical);
  void set_value(size_t column, const Value& value);
  void end_row();

  // Convenience: one whole row of Values.
  void append_row(const std::vector<Value>& row);

 private:
  Table& table_;
  IndexMaintenance indexes_;
  HotChunk* chunk_ = nullptr;
  uint32_t row_ = 0;
};

}  // namespace floe
