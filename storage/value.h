// A single typed SQL value, used for constants, literals, COPY input and query results.
// Not used on hot paths: generated code and the scan subsystem work on physical arrays.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

#include "storage/decimal.h"
#include "storage/interval.h"
#include "storage/types.h"

namespace floe {

class Value {
 public:
  Value() = default;  // NULL of unknown type

  static Value null(SqlType type);
  static Value boolean(bool value);
  static Value small_int(int16_t value);
  static Value integer(int32_t value);
  static Value big_int(int64_t value);
  // `scaled` is value * 10^type.scale.
  static Value decimal(int128_t scaled, uint8_t precision, uint8_t scale);
  static Value double_value(double value);
  static Value date(int32_t days);
  static Value timestamp(int64_t micros);
  static Value interval(Interval value);
  static Value string(std::string value, SqlType type = SqlType::text());

  const SqlType& type() const { return type_; }
  bool is_null() const { return null_; }

  bool as_bool() const { return integral_ != 0; }
  // Integers, dates, timestamps and the scaled integer of a decimal.
  int64_t as_int64() const { return static_cast<int64_t>(integral_); }
  int128_t as_int128() const { return integral_; }
  double as_double() const { return double_; }
  const Interval& as_interval() const { return interval_; }
  const std::string& as_string() const { return string_; }

  // Writes the physical representation (PhysicalType of type()) to `out`. Strings become a
  // StringRef pointing into this Value, so the Value must outlive the copy.
  void write_physical(void* out) const;
  // Reads a value of `type` from its physical representation.
  static Value read_physical(const void* in, SqlType type);

  // PostgreSQL text output; NULL prints as "NULL".
  std::string to_string() const;

  // SQL equality of two non-null values of the same type (used by tests and folding).
  bool operator==(const Value& other) const;

 private:
  SqlType type_ = SqlType::unknown();
  bool null_ = true;
  int128_t integral_ = 0;
  double double_ = 0;
  Interval interval_;
  std::string string_;
};

// PostgreSQL's shortest round-trip text for a double ("0.1", "1e+20", "Infinity", "NaN").
std::string format_double(double value);

// Three-way comparison of two non-null values of the same type, in SQL order
// (storage/physical_order.h's sql_compare: NaN sorts last, as in PostgreSQL).
int compare_values(const Value& a, const Value& b);

// Where PostgreSQL treats casts differently: a value longer than CHAR(n)/VARCHAR(n) allows
// is cut to n characters by an explicit cast (CAST, ::) but is an error in an assignment
// (INSERT, COPY) unless only blanks would be cut.
enum class CastKind : uint8_t { kAssignment, kExplicit };

// Text input conversion, as COPY and CAST from a string literal do. Throws floe::Error
// ("invalid input syntax for type integer: \"abc\"", "value too long for type ...").
Value parse_value(std::string_view text, SqlType type, CastKind kind = CastKind::kAssignment);

// An integer of the integer type `type`; throws floe::Error("<type> out of range").
Value make_integer(int128_t value, SqlType type);

// CAST between types with PostgreSQL semantics (rounding numeric to integer, range checks,
// CHAR padding semantics). Throws floe::Error on failure.
Value cast_value(const Value& value, SqlType target, CastKind kind = CastKind::kAssignment);

// How many leading bytes of UTF-8 `text` a value of the string type `type` keeps: at most n
// characters for CHAR(n)/VARCHAR(n) (n = 0: no limit) under `kind`'s rule, and no trailing
// blanks for CHAR, which floe stores without them. Throws floe::Error ("value too long for
// type character varying(3)") when an assignment would cut more than blanks.
size_t fitted_string_bytes(std::string_view text, const SqlType& type, CastKind kind);

}  // namespace floe
