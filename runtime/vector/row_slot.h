// Where a value sits in a materialized row (engine/plan/row_layout.h: the value at an offset,
// then one null byte per nullable field), described without the plan layer so that the
// runtime's vectorized primitives can read and write rows that generated code also uses.
// plan::row_slot() builds one from a RowLayout field.
#pragma once

#include <cstdint>
#include <cstring>

#include "storage/types.h"

namespace floe::vectorized {

struct RowSlot {
  PhysicalType type = PhysicalType::kInt64;
  uint32_t offset = 0;
  int32_t null_offset = -1;  // -1: the field is never NULL

  bool is_null(const uint8_t* row) const { return null_offset >= 0 && row[null_offset] != 0; }
  template <typename T>
  T load(const uint8_t* row) const {
    T value;
    std::memcpy(&value, row + offset, sizeof(T));
    return value;
  }
  template <typename T>
  void store(uint8_t* row, const T& value) const {
    std::memcpy(row + offset, &value, sizeof(T));
  }
};

}  // namespace floe::vectorized
