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

HotChunk::HotChunk(const std::vector<ColumnDef>& columns) {
  columns_.reserve(columns.size());
  for (const ColumnDef& def : columns) {
    Column column;
    column.width = physical_size(def.type.physical());
    if (def.nullable) column.validity.reset(new uint64_t[kChunkCapacity / 64]());
    columns_.push_back(std::move(column));
  }
}

void HotChunk::grow() {
  uint32_t new_capacity = std::min(kChunkCapacity, std::max(kInitialCapacity, capacity_ * 2));
  for (Column& column : columns_) {
    auto bigger = std::make_unique<uint8_t[]>(column.width * new_capacity + kTailPadding);
    if (size_) std::memcpy(bigger.get(), column.data.get(), column.width * size_);
    if (column.data) epochs().retire_object(std::move(column.data));
    column.data = std::move(bigger);
  }
  capacity_ = new_capacity;
}

uint32_t HotChunk::append_slot() {
  if (size_ == capacity_) grow();
  uint32_t row = size_++;
  // A fresh slot starts valid; the appender clears the bit for NULLs.
  for (Column& column : columns_)
    if (column.validity) column.validity[row >> 6] |= uint64_t{1} << (row & 63);
  return row;
}

}  // namespace floe
