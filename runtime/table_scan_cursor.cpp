#include "runtime/table_scan_cursor.h"

#include <algorithm>

#include "storage/error.h"

namespace floe {

TableScanCursor::TableScanCursor(const Table& table, std::vector<size_t> columns,
                                 uint32_t vector_size)
    : table_(table),
      columns_(std::move(columns)),
      vector_size_(vector_size),
      column_pointers_(columns_.size()),
      validity_pointers_(columns_.size()) {
  if (vector_size_ == 0) throw Error("internal error: scan vector size must be positive");
  for (size_t column : columns_) {
    if (column >= table_.columns().size())
      throw Error("internal error: scan of column " + std::to_string(column) + " of table \"" +
                  table_.name() + "\" which has only " + std::to_string(table_.columns().size()) +
                  " columns");
    widths_.push_back(physical_size(table_.columns()[column].type.physical()));
  }
}

bool TableScanCursor::open(uint64_t begin_row, uint64_t end_row) {
  if (begin_row > end_row) return false;
  position_ = begin_row;
  end_ = end_row;
  return true;
}

uint32_t TableScanCursor::next(FloeScanBatch& batch) {
  while (position_ < end_) {
    uint64_t chunk_index = position_ >> kChunkShift;
    if (chunk_index >= table_.chunk_count()) break;
    const HotChunk& chunk = table_.chunk(chunk_index);
    uint32_t row = static_cast<uint32_t>(position_ & (kChunkCapacity - 1));
    uint64_t chunk_base = chunk_index << kChunkShift;
    uint32_t stop = static_cast<uint32_t>(std::min<uint64_t>(end_ - chunk_base, chunk.size()));
    if (row >= stop) {
      position_ = chunk_base + kChunkCapacity;
      continue;
    }
    uint32_t count = std::min(vector_size_, stop - row);
    for (size_t i = 0; i < columns_.size(); ++i) {
      column_pointers_[i] = chunk.data(columns_[i]) + widths_[i] * row;
      validity_pointers_[i] = chunk.validity(columns_[i]);
    }
    batch.count = count;
    batch.validity_offset = row;
    batch.columns = column_pointers_.data();
    batch.validity = validity_pointers_.data();
    position_ += count;
    return count;
  }
  position_ = end_;
  batch.count = 0;
  return 0;
}

}  // namespace floe
