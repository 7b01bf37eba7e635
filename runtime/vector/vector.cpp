#include "runtime/vector/vector.h"

#include <cstring>

#include "storage/string_ref.h"

namespace floe::vectorized {

Vector::Vector(SqlType type, uint32_t extent)
    : type_(type),
      extent_(extent),
      owned_data_(std::make_unique<uint8_t[]>(physical_size(type.physical()) * extent + 1)) {
  data_ = owned_data_.get();
}

Vector Vector::wrap(SqlType type, const void* data, const uint64_t* validity,
                    uint32_t validity_offset) {
  Vector vector;
  vector.type_ = type;
  vector.data_ = data;
  vector.validity_ = validity;
  vector.validity_offset_ = validity_offset;
  return vector;
}

uint64_t* Vector::mutable_validity() {
  if (!owned_validity_) {
    size_t words = validity_words(extent_);
    owned_validity_ = std::make_unique<uint64_t[]>(words);
    std::memset(owned_validity_.get(), 0xff, words * sizeof(uint64_t));
    validity_ = owned_validity_.get();
    validity_offset_ = 0;
  }
  return owned_validity_.get();
}

void Vector::set_valid(uint32_t position, bool valid) {
  if (valid && !owned_validity_) return;
  uint64_t* words = mutable_validity();
  uint64_t bit = uint64_t{1} << (position & 63);
  words[position >> 6] = valid ? words[position >> 6] | bit : words[position >> 6] & ~bit;
}

Value Vector::get(uint32_t position) const {
  if (!is_valid(position)) return Value::null(type_);
  size_t size = physical_size(physical());
  return Value::read_physical(static_cast<const uint8_t*>(data_) + size * position, type_);
}

void Vector::set(uint32_t position, const Value& value, StringHeap& heap) {
  set_valid(position, !value.is_null());
  if (value.is_null()) return;
  uint8_t* out = owned_data_.get() + physical_size(physical()) * position;
  if (physical() == PhysicalType::kString) {
    StringRef ref = heap.store(value.as_string());
    std::memcpy(out, &ref, sizeof ref);
  } else {
    value.write_physical(out);
  }
}

DataChunk DataChunk::wrap(const FloeScanBatch& batch, const std::vector<SqlType>& types) {
  DataChunk chunk(batch.count);
  for (size_t i = 0; i < types.size(); ++i)
    chunk.add_column(
        Vector::wrap(types[i], batch.columns[i], batch.validity[i], batch.validity_offset));
  chunk.count_ = batch.count;
  chunk.selection_ = batch.selection;
  return chunk;
}

Vector& DataChunk::add_column(SqlType type) {
  columns_.emplace_back(type, capacity_);
  return columns_.back();
}

}  // namespace floe::vectorized
