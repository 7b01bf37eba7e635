#include "bench/tpcc/floe_fields.h"

namespace floe::tpcc {

Field to_field(const api::Value& value) {
  if (value.is_null()) return {};
  switch (value.type().id) {
    case api::TypeId::kSmallInt:
    case api::TypeId::kInteger:
    case api::TypeId::kBigInt:
      return value.as_int64();
    case api::TypeId::kNumeric:
    case api::TypeId::kDouble:
      return value.as_double();
    case api::TypeId::kChar:
    case api::TypeId::kVarchar:
    case api::TypeId::kText:
      return value.as_string();
    default:
      return value.to_string();
  }
}

Field numeric_field(int64_t unscaled, int scale) {
  double divisor = 1;
  for (int i = 0; i < scale; ++i) divisor *= 10;
  return static_cast<double>(unscaled) / divisor;
}

Field to_field(const api::RecordValue& value) {
  if (value.is_null()) return {};
  const api::Type type = value.type();
  switch (type.id) {
    case api::TypeId::kSmallInt:
    case api::TypeId::kInteger:
    case api::TypeId::kBigInt:
      return value.as_int64();
    case api::TypeId::kNumeric:
      return numeric_field(value.as_int64(), type.scale);
    case api::TypeId::kDouble:
      return value.as_double();
    case api::TypeId::kChar:
    case api::TypeId::kVarchar:
    case api::TypeId::kText:
      return std::string(value.as_string());
    default:
      return to_field(value.to_value());
  }
}

}  // namespace floe::tpcc
