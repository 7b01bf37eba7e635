#include "bench/tpcc/floe_record_fields.h"

namespace floe::tpcc {

Field to_field(const Value& value) {
  if (value.is_null()) return {};
  const SqlType& type = value.type();
  if (type.is_integer()) return value.as_int64();
  if (type.id == TypeId::kDecimal) {
    double divisor = 1;
    for (int i = 0; i < type.scale; ++i) divisor *= 10;
    return static_cast<double>(value.as_int128()) / divisor;
  }
  if (type.id == TypeId::kDouble) return value.as_double();
  if (type.is_string()) return value.as_string();
  return value.to_string();
}

}  // namespace floe::tpcc
