#include "engine/api/record_key.h"

#include <limits>

#include "storage/error.h"
#include "storage/string_ref.h"
#include "storage/table.h"

namespace floe {

bool RecordKey::complete() const {
  return parts_ == index_.index->constraint().columns.size();
}

const SqlType& RecordKey::next_type() const {
  const std::vector<size_t>& columns = index_.index->constraint().columns;
  if (parts_ >= columns.size())
    throw Error("index \"" + index_.index->constraint().name + "\" has " +
                std::to_string(columns.size()) + " key columns, not " +
                std::to_string(parts_ + 1));
  return index_.table->columns()[columns[parts_]].type;
}

RecordKey& RecordKey::add(const Value& value) {
  const SqlType& type = next_type();
  values_.push_back(value);
  if (value.is_null()) {
    has_null_ = true;
  } else {
    alignas(16) uint8_t physical[16];
    if (value.type() == type) {
      value.write_physical(physical);
      index_.index->append_part(bytes_, parts_, physical);
    } else {
      const Value typed = cast_value(value, type);
      typed.write_physical(physical);  // (a string: a view into `typed`, encoded right away)
      index_.index->append_part(bytes_, parts_, physical);
    }
  }
  ++parts_;
  return *this;
}

RecordKey& RecordKey::add(int64_t value) {
  const SqlType& type = next_type();
  // A value the key column's integer type holds is encoded as it is; anything else takes
  // the cast (with its errors) of the Value-based path.
  auto fits = [&](auto limit) {
    using T = decltype(limit);
    return value >= std::numeric_limits<T>::min() && value <= std::numeric_limits<T>::max();
  };
  if (type.is_integer()) {
    alignas(16) uint8_t physical[16];
    bool encoded = true;
    switch (type.physical()) {
      case PhysicalType::kInt16:
        if ((encoded = fits(int16_t{}))) *reinterpret_cast<int16_t*>(physical) = static_cast<int16_t>(value);
        break;
      case PhysicalType::kInt32:
        if ((encoded = fits(int32_t{}))) *reinterpret_cast<int32_t*>(physical) = static_cast<int32_t>(value);
        break;
      case PhysicalType::kInt64:
        *reinterpret_cast<int64_t*>(physical) = value;
        break;
      default:
        encoded = false;
    }
    if (encoded) {
      index_.index->append_part(bytes_, parts_++, physical);
      values_.push_back(Value::big_int(value));
      return *this;
    }
  }
  return add(Value::big_int(value));
}

RecordKey& RecordKey::add(std::string_view value) {
  const SqlType& type = next_type();
  // varchar and text keep the bytes as they are; char(n) drops trailing blanks, other types
  // parse the text: the cast's business.
  if (type.id != TypeId::kVarchar && type.id != TypeId::kText)
    return add(Value::string(std::string(value)));
  const StringRef ref = StringRef::from(value);
  index_.index->append_part(bytes_, parts_++, &ref);
  values_.push_back(Value::string(std::string(value)));
  return *this;
}

}  // namespace floe
