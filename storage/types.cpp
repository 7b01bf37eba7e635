#include "storage/types.h"

#include "storage/interval.h"
#include "storage/string_ref.h"

namespace floe {

size_t physical_size(PhysicalType type) {
  switch (type) {
    case PhysicalType::kBool: return 1;
    case PhysicalType::kInt16: return 2;
    case PhysicalType::kInt32: return 4;
    case PhysicalType::kInt64: return 8;
    case PhysicalType::kInt128: return 16;
    case PhysicalType::kDouble: return 8;
    case PhysicalType::kInterval: return sizeof(Interval);
    case PhysicalType::kString: return sizeof(StringRef);
  }
  return 0;
}

PhysicalType SqlType::physical() const {
  switch (id) {
    case TypeId::kBoolean: return PhysicalType::kBool;
    case TypeId::kSmallInt: return PhysicalType::kInt16;
    case TypeId::kInteger: return PhysicalType::kInt32;
    case TypeId::kBigInt: return PhysicalType::kInt64;
    case TypeId::kDecimal:
      return precision <= kMaxInt64DecimalPrecision ? PhysicalType::kInt64 : PhysicalType::kInt128;
    case TypeId::kDouble: return PhysicalType::kDouble;
    case TypeId::kDate: return PhysicalType::kInt32;
    case TypeId::kTimestamp: return PhysicalType::kInt64;
    case TypeId::kInterval: return PhysicalType::kInterval;
    case TypeId::kChar:
    case TypeId::kVarchar:
    case TypeId::kText:
    case TypeId::kUnknown: return PhysicalType::kString;
  }
  return PhysicalType::kInt64;
}

std::string SqlType::to_string() const {
  switch (id) {
    case TypeId::kBoolean: return "boolean";
    case TypeId::kSmallInt: return "smallint";
    case TypeId::kInteger: return "integer";
    case TypeId::kBigInt: return "bigint";
    case TypeId::kDecimal:
      return "numeric(" + std::to_string(precision) + "," + std::to_string(scale) + ")";
    case TypeId::kDouble: return "double precision";
    case TypeId::kDate: return "date";
    case TypeId::kTimestamp: return "timestamp";
    case TypeId::kInterval: return "interval";
    case TypeId::kChar: return length ? "character(" + std::to_string(length) + ")" : "bpchar";
    case TypeId::kVarchar:
      return length ? "character varying(" + std::to_string(length) + ")" : "character varying";
    case TypeId::kText: return "text";
    case TypeId::kUnknown: return "unknown";
  }
  return "?";
}

uint8_t integer_decimal_precision(TypeId id) {
  switch (id) {
    case TypeId::kSmallInt: return 5;
    case TypeId::kInteger: return 10;
    case TypeId::kBigInt: return 19;
    default: return 0;
  }
}

CastFamily cast_family(const SqlType& type) {
  switch (type.id) {
    case TypeId::kBoolean:
      return CastFamily::kBool;
    case TypeId::kSmallInt:
    case TypeId::kInteger:
    case TypeId::kBigInt:
      return CastFamily::kInteger;
    case TypeId::kDecimal:
      return CastFamily::kDecimal;
    case TypeId::kDouble:
      return CastFamily::kDouble;
    case TypeId::kDate:
      return CastFamily::kDate;
    case TypeId::kTimestamp:
      return CastFamily::kTimestamp;
    case TypeId::kInterval:
      return CastFamily::kInterval;
    default:
      return CastFamily::kString;
  }
}

}  // namespace floe
