#include "storage/table_chunk.h"

#include <cstring>

#include "storage/data_block.h"
#include "storage/epoch_manager.h"

namespace floe {

TableChunk::TableChunk(const std::vector<ColumnDef>& columns)
    : hot_(std::make_unique<HotChunk>(columns)) {}

TableChunk::~TableChunk() { delete versions_.load(std::memory_order_relaxed); }

uint32_t TableChunk::size() const {
  return block_ ? block_->tuple_count() : hot_->size();
}

ChunkVersions& TableChunk::ensure_versions() {
  ChunkVersions* versions = versions_.load(std::memory_order_relaxed);
  if (!versions) {
    versions = new ChunkVersions;
    versions_.store(versions, std::memory_order_release);
  }
  return *versions;
}

void TableChunk::drop_versions() {
  if (ChunkVersions* versions = versions_.exchange(nullptr, std::memory_order_acq_rel))
    epochs().retire_object(std::unique_ptr<ChunkVersions>(versions));
}

void TableChunk::freeze(const std::vector<ColumnDef>& columns, std::optional<size_t> sort_column) {
  if (block_) return;
  block_ = DataBlock::freeze(columns, *hot_, 0, hot_->size(), sort_column);
  hot_.reset();
}

TableChunk::ColumnArray TableChunk::read_column(size_t column, PhysicalType type,
                                                Scratch& scratch) const {
  if (hot_) return {hot_->data(column), hot_->validity(column)};
  const uint32_t rows = block_->tuple_count();
  scratch.data.resize(physical_size(type) * rows);
  auto view = block_->column(column);
  view.unpack_range(0, rows, scratch.data.data());
  if (!view.has_nulls()) return {scratch.data.data(), nullptr};
  scratch.validity.assign((rows + 63) / 64, 0);
  view.unpack_validity_range(0, rows, scratch.validity.data());
  return {scratch.data.data(), scratch.validity.data()};
}

Value TableChunk::value(uint32_t row, size_t column, const SqlType& type) const {
  alignas(16) uint8_t buffer[16];
  if (!physical_value(row, column, type.physical(), buffer)) return Value::null(type);
  return Value::read_physical(buffer, type);
}

bool TableChunk::physical_value(uint32_t row, size_t column, PhysicalType type, void* out) const {
  if (hot_) {
    if (!hot_->is_valid(column, row)) return false;
    const size_t width = physical_size(type);
    std::memcpy(out, hot_->data(column) + width * row, width);
    return true;
  }
  BlockColumn view = block_->column(column);
  if (!view.is_valid(row)) return false;
  view.unpack(&row, 1, out);
  return true;
}

}  // namespace floe
