// The chunks of a table by number (issue 10, "Column arrays never move under a concurrent
// reader"): fixed-size segments of chunk pointers, allocated as the table grows and never
// reallocated, so that a reader may look a chunk up while a writer appends one (a
// std::vector of chunks would move under it). Appending stores the chunk, then publishes it
// with a release store of the count; chunks taken off the end are retired through the epochs
// (storage/epoch_manager.h), so a reader that still holds one reads on safely.
// One writer at a time; any number of readers beside it.
#pragma once

#include <atomic>
#include <cstddef>
#include <memory>

#include "storage/table_chunk.h"

namespace floe {

class ChunkDirectory {
 public:
  ChunkDirectory() = default;
  ~ChunkDirectory();
  ChunkDirectory(const ChunkDirectory&) = delete;
  ChunkDirectory& operator=(const ChunkDirectory&) = delete;

  // Chunks published so far.
  size_t size() const { return size_.load(std::memory_order_acquire); }
  bool empty() const { return size() == 0; }
  // A published chunk (index < size()).
  TableChunk& operator[](size_t index) const {
    return *segments_[index / kSegmentChunks]
                .load(std::memory_order_acquire)[index % kSegmentChunks]
                .load(std::memory_order_acquire);
  }
  TableChunk& back() const { return (*this)[size() - 1]; }

  // Publishes a chunk after the last (writers only).
  void push_back(std::unique_ptr<TableChunk> chunk);
  // Takes the last chunk off and retires it (writers only).
  void pop_back();
  // Takes every chunk off and retires them (writers only).
  void clear();
  // Exchanges the chunks of two directories; nobody may read either meanwhile (ALTER TABLE).
  void swap(ChunkDirectory& other);

  // 2^8 chunks per segment and 2^10 segments: 2^34 rows a table.
  static constexpr size_t kSegmentChunks = 256;
  static constexpr size_t kSegments = 1024;

 private:
  std::atomic<std::atomic<TableChunk*>*> segments_[kSegments] = {};
  std::atomic<size_t> size_{0};
};

}  // namespace floe
