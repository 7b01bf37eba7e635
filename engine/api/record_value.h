// A column value as the record path reads it (TransactionScope::read into caller storage):
// the column's type, a NULL flag and the physical representation (storage/types.h), with no
// Value and no allocation. A long string is a view of bytes in the table (its chunk's string
// heap or Data Block) or in the undo buffer (a before-image): valid until the transaction's
// next record operation or statement, which may change or move the row.
#pragma once

#include <cstdint>
#include <cstring>
#include <string_view>

#include "storage/error.h"
#include "storage/string_ref.h"
#include "storage/value.h"

namespace floe {

class RecordValue {
 public:
  bool is_null() const { return null_; }
  const SqlType& type() const { return *type_; }
  // Integer types (bool, smallint, integer, bigint, and date's day number): the value;
  // decimal: the unscaled integer (type().scale digits after the point).
  int64_t as_int64() const { return static_cast<int64_t>(as_int128()); }
  int128_t as_int128() const;
  // double precision.
  double as_double() const { return load<double>(); }
  // char, varchar and text.
  std::string_view as_string() const {
    StringRef ref;
    std::memcpy(&ref, physical_, sizeof ref);
    return ref.is_inline() ? std::string_view(inline_bytes(), ref.length) : ref.view();
  }
  // An owning copy.
  Value to_value() const {
    return null_ ? Value::null(*type_) : Value::read_physical(physical_, *type_);
  }

  // Filled in place by the record path: the type (which must outlive this), whether NULL,
  // and the physical bytes.
  void reset(const SqlType& type, bool null) {
    type_ = &type;
    null_ = null;
  }
  uint8_t* physical() { return physical_; }
  const uint8_t* physical() const { return physical_; }

 private:
  template <typename T>
  T load() const {
    T value;
    std::memcpy(&value, physical_, sizeof value);
    return value;
  }
  // An inline string's bytes are in physical_ itself (not in a copy of the StringRef).
  const char* inline_bytes() const { return reinterpret_cast<const char*>(physical_) + 4; }

  const SqlType* type_ = nullptr;
  bool null_ = true;
  alignas(16) uint8_t physical_[16] = {};
};

inline int128_t RecordValue::as_int128() const {
  switch (type_->physical()) {
    case PhysicalType::kBool:
      return physical_[0] != 0;
    case PhysicalType::kInt16:
      return load<int16_t>();
    case PhysicalType::kInt32:
      return load<int32_t>();
    case PhysicalType::kInt64:
      return load<int64_t>();
    case PhysicalType::kInt128:
      return load<int128_t>();
    default:
      throw Error("the column's value is not an integer");
  }
}

}  // namespace floe
