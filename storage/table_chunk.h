// One chunk of a table (DESIGN.md "Hot chunks and Data Blocks"): either hot, a HotChunk of
// plain arrays that inserts append to, or frozen, an immutable, compressed DataBlock. Scans,
// statistics and the morsel dispatcher see chunks only through this class; what a chunk
// holds is the business of storage/ and of the vectorized scan.
#pragma once

#include <atomic>
#include <chrono>
#include <cstdint>
#include <memory>
#include <optional>
#include <vector>

#include "storage/hot_chunk.h"
#include "storage/row_versions.h"
#include "storage/value.h"

namespace floe {

class DataBlock;

class TableChunk {
 public:
  explicit TableChunk(const std::vector<ColumnDef>& columns);
  ~TableChunk();
  TableChunk(const TableChunk&) = delete;
  TableChunk& operator=(const TableChunk&) = delete;

  uint32_t size() const;
  bool frozen() const { return block_ != nullptr; }
  // Exactly one of the two is set.
  const HotChunk* hot() const { return hot_.get(); }
  HotChunk* hot() { return hot_.get(); }
  const DataBlock* block() const { return block_.get(); }

  // Replaces the hot chunk by a Data Block of its rows, sorted on `sort_column` when given
  // (the Data Blocks paper's block-wise sorted freezing, Fig 11). The row order, and so the
  // row ids, may change; the rows do not. Safe only while nobody reads or writes the chunk.
  void freeze(const std::vector<ColumnDef>& columns, std::optional<size_t> sort_column = {});

  // The rows' versions and delete flags (storage/row_versions.h): null until the chunk's first
  // change after its insert, and again once garbage collection found nothing left to keep.
  // Garbage collection drops them while readers run: the pointer is atomic and the dropped
  // versions are retired through the epochs (storage/epoch_manager.h).
  const ChunkVersions* versions() const { return versions_.load(std::memory_order_acquire); }
  ChunkVersions* versions() { return versions_.load(std::memory_order_acquire); }
  ChunkVersions& ensure_versions();
  void drop_versions();

  // When a hot chunk became full (the freezer freezes full chunks that stay untouched).
  std::chrono::steady_clock::time_point filled_at() const { return filled_at_; }
  void mark_filled() { filled_at_ = std::chrono::steady_clock::now(); }

  // A column's values in the physical layout of a hot chunk, whatever the chunk is: the
  // hot chunk's own arrays, or a frozen block's values decoded into `scratch`. The validity
  // bitmap is null when the column has no NULL in this chunk. Valid until the next call
  // with the same scratch.
  struct ColumnArray {
    const uint8_t* data;
    const uint64_t* validity;
  };
  struct Scratch {
    std::vector<uint8_t> data;
    std::vector<uint64_t> validity;
  };
  ColumnArray read_column(size_t column, PhysicalType type, Scratch& scratch) const;
  // One value, O(1) in either form (Data Blocks decode a single position).
  Value value(uint32_t row, size_t column, const SqlType& type) const;
  // The same in its physical form, written to `out` (16 bytes; a string points into the
  // chunk); false for NULL.
  bool physical_value(uint32_t row, size_t column, PhysicalType type, void* out) const;

 private:
  std::unique_ptr<HotChunk> hot_;
  std::unique_ptr<DataBlock> block_;
  std::atomic<ChunkVersions*> versions_{nullptr};  // owned
  std::chrono::steady_clock::time_point filled_at_{};
};

}  // namespace floe
