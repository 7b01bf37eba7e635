#include "bench/tpcc/floe_record_fields.h"

namespace floe::tpcc {

Field numeric_field(int128_t integral, const SqlType& type) {
  if (type.id != TypeId::kDecimal) return static_cast<int64_t>(integral);
  double divisor = 1;
  for (int i = 0; i < type.scale; ++i) divisor *= 10;
  return static_cast<double>(integral) / divisor;
}

Field to_field(const Value& value) {
  if (value.is_null()) return {};
  const SqlType& type = value.type();
  if (type.is_integer() || type.id == TypeId::kDecimal)
    return numeric_field(value.as_int128(), type);
  if (type.id == TypeId::kDouble) return value.as_double();
  if (type.is_string()) return value.as_string();
  return value.to_string();
}

}  // namespace floe::tpcc
