// A hot chunk: up to 2^16 rows of a table, one plain array per column (DESIGN.md "Hot chunks
// and Data Blocks"). Nullable columns carry a validity bitmap (bit set = value present); NOT
// NULL columns have none, so code reading them needs no null checks. Strings longer than a
// StringRef holds inline live in the chunk's own string heap, which goes away with the chunk
// when it is frozen.
//
// Column arrays never move under a reader: growing allocates bigger arrays, publishes them
// with a release store (so a reader beside the appending writer loads either array, each
// holding every row published so far) and retires the old ones through the epoch manager
// (storage/epoch_manager.h), which frees them once no statement that may hold a pointer into
// them still runs.
#pragma once

#include <atomic>
#include <cstdint>
#include <memory>
#include <vector>

#include "storage/string_heap.h"
#include "storage/types.h"

namespace floe {

constexpr unsigned kChunkShift = 16;
constexpr uint32_t kChunkCapacity = 1u << kChunkShift;

struct ColumnDef {
  std::string name;
  SqlType type;
  bool nullable = true;
};

class HotChunk {
 public:
  explicit HotChunk(const std::vector<ColumnDef>& columns);
  ~HotChunk();
  HotChunk(const HotChunk&) = delete;
  HotChunk& operator=(const HotChunk&) = delete;

  // Rows appended, the one being written included: readers beside a writer stop at
  // Table::hidden_from (acquire: a size read includes only rows appended after a hide that
  // the reader then sees).
  uint32_t size() const { return size_.load(std::memory_order_acquire); }
  bool full() const { return size() == kChunkCapacity; }

  const uint8_t* data(size_t column) const {
    return columns_[column].data.load(std::memory_order_acquire);
  }
  uint8_t* data(size_t column) { return columns_[column].data.load(std::memory_order_acquire); }
  // nullptr for NOT NULL columns.
  const uint64_t* validity(size_t column) const { return columns_[column].validity.get(); }
  uint64_t* validity(size_t column) { return columns_[column].validity.get(); }

  bool is_valid(size_t column, uint32_t row) const {
    const uint64_t* bits = validity(column);
    return !bits || (bits[row >> 6] >> (row & 63) & 1);
  }

  // Makes room for one more row (growing the arrays geometrically) and returns its index.
  uint32_t append_slot();
  // Drops rows at and after `size` (undo of a failed statement).
  void truncate(uint32_t size) { size_.store(size, std::memory_order_release); }

  StringHeap& strings() { return strings_; }
  const StringHeap& strings() const { return strings_; }

 private:
  struct Column {
    size_t width = 0;
    std::atomic<uint8_t*> data{nullptr};  // owned
    std::unique_ptr<uint64_t[]> validity;
  };
  void grow();

  std::unique_ptr<Column[]> columns_;
  size_t column_count_;
  StringHeap strings_;
  std::atomic<uint32_t> size_{0};  // written by the one writer
  uint32_t capacity_ = 0;
};

}  // namespace floe
