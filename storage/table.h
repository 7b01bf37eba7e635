// A table: its schema and its rows as a list of hot chunks of 2^16 rows. Row id = chunk
// number << 16 | row in chunk (DESIGN.md "Data model").
#pragma once

#include <cstdint>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

#include "storage/hot_chunk.h"
#include "storage/string_heap.h"
#include "storage/value.h"

namespace floe {

struct ColumnStatistics;  // storage/table_statistics.h

class Table {
 public:
  Table(std::string name, std::vector<ColumnDef> columns, std::vector<size_t> primary_key);

  const std::string& name() const { return name_; }
  const std::vector<ColumnDef>& columns() const { return columns_; }
  const std::vector<size_t>& primary_key() const { return primary_key_; }
  std::optional<size_t> find_column(std::string_view name) const;

  uint64_t row_count() const { return row_count_; }
  size_t chunk_count() const { return chunks_.size(); }
  const HotChunk& chunk(size_t index) const { return *chunks_[index]; }
  HotChunk& chunk(size_t index) { return *chunks_[index]; }

  StringHeap& strings() { return strings_; }

  // Removes every row at or after `row_count`: how a failed statement takes back its rows.
  void truncate(uint64_t row_count);

  // Bumped by every change of the rows (appended row, truncate).
  uint64_t modification_count() const { return modification_count_; }
  // Statistics of one column's current rows: computed on first use, cached until the rows
  // change. Thread-safe.
  std::shared_ptr<const ColumnStatistics> column_statistics(size_t column) const;
  // Computes the statistics of every column not cached yet, columns in parallel. Bulk loads
  // call it, so that planning the first query does not pay for the scans (ANALYZE).
  void analyze() const;

 private:
  friend class TableAppender;
  HotChunk& last_chunk_with_room();

  std::string name_;
  std::vector<ColumnDef> columns_;
  std::vector<size_t> primary_key_;
  std::vector<std::unique_ptr<HotChunk>> chunks_;
  StringHeap strings_;
  uint64_t row_count_ = 0;
  uint64_t modification_count_ = 0;

  mutable std::mutex statistics_mutex_;
  mutable uint64_t statistics_version_ = 0;  // modification_count_ the cache belongs to
  mutable std::vector<std::shared_ptr<const ColumnStatistics>> statistics_;  // per column
};

// Appends rows one at a time. Values must already have the column's type; long strings are
// copied into the table's string heap.
class TableAppender {
 public:
  explicit TableAppender(Table& table) : table_(table) {}

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
  HotChunk* chunk_ = nullptr;
  uint32_t row_ = 0;
};

}  // namespace floe
