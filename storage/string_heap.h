// Append-only storage for string bytes that do not fit inline in a StringRef. Memory is
// released only with the heap, so StringRefs into it stay valid for its whole life.
#pragma once

#include <atomic>
#include <memory>
#include <string_view>
#include <vector>

#include "storage/string_ref.h"

namespace floe {

class StringHeap {
 public:
  // Returns a StringRef whose out-of-line bytes (if any) live in this heap.
  StringRef store(std::string_view bytes);
  // Raw bytes, for callers that build a string in place.
  char* allocate(size_t size);
  // Read beside the writer (storage_report).
  size_t bytes_allocated() const { return total_.load(std::memory_order_relaxed); }
  // Forgets every string (their StringRefs dangle) but keeps the block it fills now, so that
  // a statement run many times (a prepared statement's kept state) allocates no new block.
  void clear();

 private:
  static constexpr size_t kBlockSize = 256 * 1024;
  std::vector<std::unique_ptr<char[]>> blocks_;
  char* block_ = nullptr;  // the standard block being filled (cursor_ points into it)
  char* cursor_ = nullptr;
  size_t remaining_ = 0;
  // One writer: a plain store, atomic only for readers beside it.
  void count(size_t bytes) {
    total_.store(total_.load(std::memory_order_relaxed) + bytes, std::memory_order_relaxed);
  }
  std::atomic<size_t> total_{0};
};

}  // namespace floe
