#include "storage/hot_chunk.h"

#include <algorithm>
#include <cstring>

#include "storage/epoch_manager.h"

namespace floe {

namespace {
constexpr uint32_t kInitialCapacity = 1024;
// The scan's SIMD kernels gather the aligned 4-byte word around a 1- or 2-byte value, which
// may reach up to 3 bytes past the last value (runtime/simd_match.h).
constexpr size_t kTailPadding = 16;
}

HotChunk::HotChunk(const std::vector<ColumnDef>& columns)
    : columns_(new Column[columns.size()]), column_count_(columns.size()) {
  for (size_t c = 0; c < column_count_; ++c) {
    columns_[c].width = physical_size(columns[c].type.physical());
    if (columns[c].nullable) columns_[c].validity.reset(new uint64_t[kChunkCapacity / 64]());
  }
}

HotChunk::~HotChunk() {
  for (size_t c = 0; c < column_count_; ++c)
    delete[] columns_[c].data.load(std::memory_order_relaxed);
}

void HotChunk::grow() {
  uint32_t new_capacity = std::min(kChunkCapacity, std::max(kInitialCapacity, capacity_ * 2));
  const uint32_t rows = size();
  for (size_t c = 0; c < column_count_; ++c) {
    Column& column = columns_[c];
    auto* bigger = new uint8_t[column.width * new_capacity + kTailPadding]();
    uint8_t* old = column.data.load(std::memory_order_relaxed);
    if (rows) std::memcpy(bigger, old, column.width * rows);
    column.data.store(bigger, std::memory_order_release);
    if (old) epochs().retire_object(std::unique_ptr<uint8_t[]>(old));
  }
  capacity_ = new_capacity;
}

uint32_t HotChunk::append_slot() {
  const uint32_t row = size();
  if (row == capacity_) grow();
  size_.store(row + 1, std::memory_order_release);
  // A fresh slot starts valid; the appender clears the bit for NULLs.
  for (size_t c = 0; c < column_count_; ++c)
    if (uint64_t* validity = columns_[c].validity.get())
      validity[row >> 6] |= uint64_t{1} << (row & 63);
  return row;
}

}  // namespace floe
