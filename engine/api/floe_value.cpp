// The public API's values and types (engine/api/floe.h) and their conversion to the engine's
// (storage/value.h): text output and casts have one implementation, the engine's.
#include "engine/api/floe_convert.h"
#include "storage/decimal.h"

namespace floe {

#define FLOE_SAME_TYPE_ID(name) \
  static_assert(static_cast<int>(api::TypeId::name) == static_cast<int>(TypeId::name))
FLOE_SAME_TYPE_ID(kBoolean);
FLOE_SAME_TYPE_ID(kSmallInt);
FLOE_SAME_TYPE_ID(kInteger);
FLOE_SAME_TYPE_ID(kBigInt);
static_assert(static_cast<int>(api::TypeId::kNumeric) == static_cast<int>(TypeId::kDecimal));
FLOE_SAME_TYPE_ID(kDouble);
FLOE_SAME_TYPE_ID(kDate);
FLOE_SAME_TYPE_ID(kTimestamp);
FLOE_SAME_TYPE_ID(kInterval);
FLOE_SAME_TYPE_ID(kChar);
FLOE_SAME_TYPE_ID(kVarchar);
FLOE_SAME_TYPE_ID(kText);
FLOE_SAME_TYPE_ID(kUnknown);
#undef FLOE_SAME_TYPE_ID

SqlType internal_type(const api::Type& type) {
  return {static_cast<TypeId>(type.id), type.precision, type.scale, type.length};
}

api::Type public_type(const SqlType& type) {
  return {static_cast<api::TypeId>(type.id), type.precision, type.scale, type.length};
}

Value internal_value(const api::Value& value) {
  const api::Type& type = value.type();
  if (value.is_null()) return Value::null(internal_type(type));
  switch (type.id) {
    case api::TypeId::kBoolean:
      return Value::boolean(value.as_bool());
    case api::TypeId::kSmallInt:
      return Value::small_int(static_cast<int16_t>(value.as_int64()));
    case api::TypeId::kInteger:
      return Value::integer(static_cast<int32_t>(value.as_int64()));
    case api::TypeId::kBigInt:
      return Value::big_int(value.as_int64());
    case api::TypeId::kNumeric:
      return parse_value(value.as_string(), internal_type(type));
    case api::TypeId::kDouble:
      return Value::double_value(value.as_double());
    case api::TypeId::kDate:
      return Value::date(static_cast<int32_t>(value.as_int64()));
    case api::TypeId::kTimestamp:
      return Value::timestamp(value.as_int64());
    case api::TypeId::kInterval: {
      const api::Interval& i = value.as_interval();
      return Value::interval(Interval{i.months, i.days, i.micros});
    }
    case api::TypeId::kChar:
    case api::TypeId::kVarchar:
    case api::TypeId::kText:
    case api::TypeId::kUnknown:  // a literal: typed where it is used
      break;
  }
  return Value::string(value.as_string(), internal_type(type));
}

api::Value public_value(const Value& value) {
  const SqlType& type = value.type();
  if (value.is_null()) return api::Value::null(public_type(type));
  switch (type.id) {
    case TypeId::kBoolean:
      return api::Value::boolean(value.as_bool());
    case TypeId::kSmallInt:
      return api::Value::small_int(static_cast<int16_t>(value.as_int64()));
    case TypeId::kInteger:
      return api::Value::integer(static_cast<int32_t>(value.as_int64()));
    case TypeId::kBigInt:
      return api::Value::big_int(value.as_int64());
    case TypeId::kDecimal:  // the engine's canonical text already: not parsed again
      return api::Value::string(value.to_string(), public_type(type));
    case TypeId::kDouble:
      return api::Value::double_value(value.as_double());
    case TypeId::kDate:
      return api::Value::date(static_cast<int32_t>(value.as_int64()));
    case TypeId::kTimestamp:
      return api::Value::timestamp(value.as_int64());
    case TypeId::kInterval: {
      const Interval& i = value.as_interval();
      return api::Value::interval({i.months, i.days, i.micros});
    }
    case TypeId::kChar:
    case TypeId::kVarchar:
    case TypeId::kText:
    case TypeId::kUnknown:
      break;
  }
  return api::Value::string(value.as_string(), public_type(type));
}

}  // namespace floe

namespace floe::api {

std::string Type::name() const {
  return internal_type(*this).to_string();
}

bool Type::is_numeric() const {
  return internal_type(*this).is_numeric();
}

Value Value::null(Type type) {
  Value value;
  value.type_ = type;
  return value;
}

Value Value::of(Type type, int64_t integral) {
  Value value = null(type);
  value.null_ = false;
  value.integral_ = integral;
  return value;
}

Value Value::boolean(bool b) {
  return of({TypeId::kBoolean}, b);
}
Value Value::small_int(int16_t i) {
  return of({TypeId::kSmallInt}, i);
}
Value Value::integer(int32_t i) {
  return of({TypeId::kInteger}, i);
}
Value Value::big_int(int64_t i) {
  return of({TypeId::kBigInt}, i);
}
Value Value::date(int32_t days_since_1970) {
  return of({TypeId::kDate}, days_since_1970);
}
Value Value::timestamp(int64_t micros_since_1970) {
  return of({TypeId::kTimestamp}, micros_since_1970);
}

Value Value::numeric(std::string_view text) {
  unsigned precision = 0, scale = 0;
  if (!decimal_literal_shape(text, precision, scale) || precision > kMaxDecimalPrecision)
    throw Error("invalid input syntax for type numeric: \"" + std::string(text) + "\"", "22P02");
  return numeric(text, static_cast<uint8_t>(precision), static_cast<uint8_t>(scale));
}

Value Value::numeric(std::string_view text, uint8_t precision, uint8_t scale) {
  Type type{TypeId::kNumeric, precision, scale};
  // The engine's text input and output: rounded to the scale, in canonical form.
  return string(
      with_public_errors([&] { return parse_value(text, internal_type(type)).to_string(); }), type);
}

Value Value::numeric_unscaled(int64_t unscaled, uint8_t precision, uint8_t scale) {
  return with_public_errors(
      [&] { return public_value(floe::Value::decimal(unscaled, precision, scale)); });
}

Value Value::double_value(double d) {
  Value value = of({TypeId::kDouble}, 0);
  value.double_ = d;
  return value;
}

Value Value::interval(Interval i) {
  Value value = of({TypeId::kInterval}, 0);
  value.interval_ = i;
  return value;
}

Value Value::text(std::string s) {
  return string(std::move(s), {TypeId::kText});
}

Value Value::string(std::string s, Type type) {
  const SqlType internal = internal_type(type);
  if (!internal.is_string() && internal.id != floe::TypeId::kDecimal &&
      internal.id != floe::TypeId::kUnknown)
    throw Error("a value of type " + type.name() + " is not made from a string", "42804");
  Value value = of(type, 0);
  value.string_ = std::move(s);
  return value;
}

Value Value::literal(std::string text) {
  return string(std::move(text), {TypeId::kUnknown});
}

double Value::as_double() const {
  if (type_.id == TypeId::kNumeric && !null_) return std::stod(string_);
  return double_;
}

std::string Value::to_string() const {
  return internal_value(*this).to_string();
}

}  // namespace floe::api
