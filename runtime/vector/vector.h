// The vectorized engine's data format (DESIGN.md "Vectorized execution"; X100 thesis §4.2):
// a Vector holds one column's values in the physical representation of a hot chunk (and of
// FloeScanBatch), with validity as bitmap words; a DataChunk is a set of equally long
// Vectors plus an optional selection vector.
//
// Positions: a chunk's rows are the positions selection[0..count) (ascending) or, without a
// selection, 0..count. Every Vector computed over the chunk keeps that indexing (a value sits
// at its row's position), so a scan batch that selects rows of a hot chunk's arrays is
// wrapped without copying, and primitives read and write the same positions (X100's
// "selection vectors", §4.2.2). extent() is one past the largest position.
#pragma once

#include <cstdint>
#include <deque>
#include <memory>
#include <vector>

#include "runtime/runtime_abi.h"
#include "storage/string_heap.h"
#include "storage/types.h"
#include "storage/value.h"

namespace floe::vectorized {

// Rows per DataChunk unless a query sets otherwise (X100 §5.3: vectors that fit the cache).
constexpr uint32_t kDefaultChunkCapacity = 2048;

inline bool validity_bit(const uint64_t* words, uint64_t index) {
  return !words || ((words[index >> 6] >> (index & 63)) & 1);
}

inline size_t validity_words(uint32_t extent) {
  return (static_cast<size_t>(extent) + 63) / 64;
}

class Vector {
 public:
  Vector() = default;
  // Owned, zeroed storage for positions [0, extent), all values present.
  Vector(SqlType type, uint32_t extent);
  Vector(Vector&&) = default;
  Vector& operator=(Vector&&) = default;

  // A view of values that live elsewhere (a scan batch, a chunk's column): position p's
  // value is data[p], present when bit validity_offset + p of `validity` is set (or
  // `validity` is null). Nothing is copied.
  static Vector wrap(SqlType type, const void* data, const uint64_t* validity,
                     uint32_t validity_offset);
  // A non-owning view of this vector.
  Vector view() const { return wrap(type_, data_, validity_, validity_offset_); }

  const SqlType& type() const { return type_; }
  PhysicalType physical() const { return type_.physical(); }
  uint32_t extent() const { return extent_; }

  template <typename T>
  const T* values() const {
    return static_cast<const T*>(data_);
  }
  // Owned vectors only.
  template <typename T>
  T* mutable_values() {
    return reinterpret_cast<T*>(owned_data_.get());
  }

  // Validity words (null: every value present), read at validity_offset() + position.
  const uint64_t* validity() const { return validity_; }
  uint32_t validity_offset() const { return validity_offset_; }
  bool is_valid(uint32_t position) const {
    return validity_bit(validity_, uint64_t{validity_offset_} + position);
  }
  bool all_valid() const { return validity_ == nullptr; }
  // Owned vectors only: the validity words at offset 0, created (all set) on first use.
  uint64_t* mutable_validity();
  void set_valid(uint32_t position, bool valid);

  // The value at `position` as a Value (strings are copied).
  Value get(uint32_t position) const;
  // Owned vectors only: stores `value` (of this vector's type, or NULL) at `position`;
  // string bytes that are not inline are copied to `heap`.
  void set(uint32_t position, const Value& value, StringHeap& heap);

 private:
  SqlType type_;
  const void* data_ = nullptr;
  const uint64_t* validity_ = nullptr;
  uint32_t validity_offset_ = 0;
  uint32_t extent_ = 0;
  std::unique_ptr<uint8_t[]> owned_data_;
  std::unique_ptr<uint64_t[]> owned_validity_;
};

class DataChunk {
 public:
  explicit DataChunk(uint32_t capacity = kDefaultChunkCapacity) : capacity_(capacity) {}

  // The batch's columns as views (no copy): validity offset and selection included.
  static DataChunk wrap(const FloeScanBatch& batch, const std::vector<SqlType>& types);

  // Adds an owned column of `type` for `capacity()` rows; returns it (references to columns
  // stay valid as columns are added).
  Vector& add_column(SqlType type);
  void add_column(Vector vector) { columns_.push_back(std::move(vector)); }
  size_t column_count() const { return columns_.size(); }
  const Vector& column(size_t index) const { return columns_[index]; }
  Vector& column(size_t index) { return columns_[index]; }

  uint32_t capacity() const { return capacity_; }
  uint32_t count() const { return count_; }
  void set_count(uint32_t count) { count_ = count; }
  // Null: the rows are positions 0..count.
  const uint32_t* selection() const { return selection_; }
  void set_selection(const uint32_t* selection) { selection_ = selection; }
  uint32_t extent() const { return selection_ && count_ ? selection_[count_ - 1] + 1 : count_; }

  // Bytes of strings computed for this chunk.
  StringHeap& heap() { return *heap_; }

 private:
  uint32_t capacity_;
  uint32_t count_ = 0;
  const uint32_t* selection_ = nullptr;
  std::deque<Vector> columns_;
  std::unique_ptr<StringHeap> heap_ = std::make_unique<StringHeap>();
};

}  // namespace floe::vectorized
