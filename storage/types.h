// SQL types and their physical representation (DESIGN.md "Data model").
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>

namespace floe {

enum class TypeId : uint8_t {
  kBoolean,
  kSmallInt,
  kInteger,
  kBigInt,
  kDecimal,  // scaled integer: int64 when precision <= 18, int128 above
  kDouble,
  kDate,       // int32 days since 1970-01-01
  kTimestamp,  // int64 microseconds since 1970-01-01 00:00:00
  kInterval,   // months, days, microseconds (PostgreSQL's three fields)
  kChar,       // CHAR(n): blank-padded semantics, stored without trailing blanks
  kVarchar,    // VARCHAR(n)
  kText,
  kUnknown,    // type of an untyped NULL literal before the binder resolves it
};

// How a value of a type sits in memory, in columns, rows and generated code.
enum class PhysicalType : uint8_t {
  kBool,      // 1 byte, 0 or 1
  kInt16,
  kInt32,
  kInt64,
  kInt128,
  kDouble,
  kInterval,  // struct Interval, 16 bytes
  kString,    // struct StringRef, 16 bytes
};

size_t physical_size(PhysicalType type);

constexpr uint8_t kMaxDecimalPrecision = 38;
constexpr uint8_t kMaxInt64DecimalPrecision = 18;

struct SqlType {
  TypeId id = TypeId::kUnknown;
  uint8_t precision = 0;  // DECIMAL only
  uint8_t scale = 0;      // DECIMAL only
  uint32_t length = 0;    // CHAR/VARCHAR maximum length; 0 means unbounded

  static SqlType boolean() { return {TypeId::kBoolean}; }
  static SqlType small_int() { return {TypeId::kSmallInt}; }
  static SqlType integer() { return {TypeId::kInteger}; }
  static SqlType big_int() { return {TypeId::kBigInt}; }
  static SqlType decimal(uint8_t precision, uint8_t scale) {
    return {TypeId::kDecimal, precision, scale, 0};
  }
  static SqlType double_type() { return {TypeId::kDouble}; }
  static SqlType date() { return {TypeId::kDate}; }
  static SqlType timestamp() { return {TypeId::kTimestamp}; }
  static SqlType interval() { return {TypeId::kInterval}; }
  static SqlType char_type(uint32_t length) { return {TypeId::kChar, 0, 0, length}; }
  static SqlType varchar(uint32_t length) { return {TypeId::kVarchar, 0, 0, length}; }
  static SqlType text() { return {TypeId::kText}; }
  static SqlType unknown() { return {TypeId::kUnknown}; }

  PhysicalType physical() const;
  bool is_integer() const {
    return id == TypeId::kSmallInt || id == TypeId::kInteger || id == TypeId::kBigInt;
  }
  bool is_numeric() const { return is_integer() || id == TypeId::kDecimal || id == TypeId::kDouble; }
  bool is_string() const {
    return id == TypeId::kChar || id == TypeId::kVarchar || id == TypeId::kText;
  }
  bool is_temporal() const { return id == TypeId::kDate || id == TypeId::kTimestamp; }

  // PostgreSQL spelling, e.g. "integer", "numeric(15,2)", "character varying(25)".
  std::string to_string() const;

  bool operator==(const SqlType& other) const = default;
};

// Decimal precision an integer type needs, for mixing integers with decimals.
uint8_t integer_decimal_precision(TypeId id);

// The families casts are defined between (codegen/expression_cast.cpp and the vectorized
// engine's runtime/vector/cast.cpp implement the same table of casts over them).
enum class CastFamily : uint8_t {
  kBool,
  kInteger,
  kDecimal,
  kDouble,
  kDate,
  kTimestamp,
  kInterval,
  kString  // every string type, and an untyped literal
};
CastFamily cast_family(const SqlType& type);

}  // namespace floe
