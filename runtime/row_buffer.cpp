#include "runtime/row_buffer.h"

#include <algorithm>

#include "runtime/parallel_sort.h"

namespace floe {

RowBuffer::RowBuffer(uint32_t row_size, uint32_t worker_count) : row_size_(row_size) {
  workers_.reserve(worker_count);
  for (uint32_t i = 0; i < worker_count; ++i) workers_.emplace_back(row_size);
}

void RowBuffer::finish() {
  rows_.clear();
  uint64_t total = 0;
  for (const EntryArena& arena : workers_) total += arena.size();
  rows_.reserve(total);
  for (const EntryArena& arena : workers_)
    arena.for_each([this](uint8_t* row) { rows_.push_back(row); });
}

void RowBuffer::clear() {
  for (EntryArena& arena : workers_) arena.clear();
  rows_.clear();
}

void RowBuffer::sort(RowComparator compare, const std::atomic<bool>* cancel) {
  parallel_stable_sort(
      rows_, [compare](const uint8_t* a, const uint8_t* b) { return compare(a, b) < 0; },
      workers_.size(), cancel);
}

void RowBuffer::apply_limit(uint64_t offset, std::optional<uint64_t> limit) {
  uint64_t begin = std::min<uint64_t>(offset, rows_.size());
  uint64_t end = limit ? begin + std::min(*limit, rows_.size() - begin) : rows_.size();
  rows_.erase(rows_.begin() + static_cast<ptrdiff_t>(end), rows_.end());
  rows_.erase(rows_.begin(), rows_.begin() + static_cast<ptrdiff_t>(begin));
}

}  // namespace floe
