#include "storage/value.h"

#include <charconv>
#include <cmath>
#include <cstring>
#include <limits>

#include "storage/date_time.h"
#include "storage/error.h"
#include "storage/numeric_casts.h"
#include "storage/physical_order.h"
#include "storage/string_ref.h"
#include "storage/utf8.h"

namespace floe {

Value Value::null(SqlType type) {
  Value v;
  v.type_ = type;
  return v;
}

Value Value::boolean(bool value) {
  Value v;
  v.type_ = SqlType::boolean();
  v.null_ = false;
  v.integral_ = value;
  return v;
}

#define FLOE_INTEGRAL_FACTORY(name, ctype, sqltype) \
  Value Value::name(ctype value) {                  \
    Value v;                                        \
    v.type_ = sqltype;                              \
    v.null_ = false;                                \
    v.integral_ = value;                            \
    return v;                                       \
  }
FLOE_INTEGRAL_FACTORY(small_int, int16_t, SqlType::small_int())
FLOE_INTEGRAL_FACTORY(integer, int32_t, SqlType::integer())
FLOE_INTEGRAL_FACTORY(big_int, int64_t, SqlType::big_int())
FLOE_INTEGRAL_FACTORY(date, int32_t, SqlType::date())
FLOE_INTEGRAL_FACTORY(timestamp, int64_t, SqlType::timestamp())
#undef FLOE_INTEGRAL_FACTORY

Value Value::decimal(int128_t scaled, uint8_t precision, uint8_t scale) {
  Value v;
  v.type_ = SqlType::decimal(precision, scale);
  v.null_ = false;
  v.integral_ = scaled;
  return v;
}

Value Value::double_value(double value) {
  Value v;
  v.type_ = SqlType::double_type();
  v.null_ = false;
  v.double_ = value;
  return v;
}

Value Value::interval(Interval value) {
  Value v;
  v.type_ = SqlType::interval();
  v.null_ = false;
  v.interval_ = value;
  return v;
}

Value Value::string(std::string value, SqlType type) {
  Value v;
  v.type_ = type;
  v.null_ = false;
  v.string_ = std::move(value);
  return v;
}

void Value::write_physical(void* out) const {
  switch (type_.physical()) {
    case PhysicalType::kBool: *static_cast<uint8_t*>(out) = integral_ != 0; break;
    case PhysicalType::kInt16: *static_cast<int16_t*>(out) = static_cast<int16_t>(integral_); break;
    case PhysicalType::kInt32: *static_cast<int32_t*>(out) = static_cast<int32_t>(integral_); break;
    case PhysicalType::kInt64: *static_cast<int64_t*>(out) = static_cast<int64_t>(integral_); break;
    case PhysicalType::kInt128: std::memcpy(out, &integral_, sizeof integral_); break;
    case PhysicalType::kDouble: *static_cast<double*>(out) = double_; break;
    case PhysicalType::kInterval: std::memcpy(out, &interval_, sizeof interval_); break;
    case PhysicalType::kString: {
      StringRef ref = StringRef::from(string_);
      std::memcpy(out, &ref, sizeof ref);
      break;
    }
  }
}

Value Value::read_physical(const void* in, SqlType type) {
  Value v;
  v.type_ = type;
  v.null_ = false;
  switch (type.physical()) {
    case PhysicalType::kBool: v.integral_ = *static_cast<const uint8_t*>(in) != 0; break;
    case PhysicalType::kInt16: v.integral_ = *static_cast<const int16_t*>(in); break;
    case PhysicalType::kInt32: v.integral_ = *static_cast<const int32_t*>(in); break;
    case PhysicalType::kInt64: v.integral_ = *static_cast<const int64_t*>(in); break;
    case PhysicalType::kInt128: std::memcpy(&v.integral_, in, sizeof v.integral_); break;
    case PhysicalType::kDouble: v.double_ = *static_cast<const double*>(in); break;
    case PhysicalType::kInterval: std::memcpy(&v.interval_, in, sizeof v.interval_); break;
    case PhysicalType::kString: {
      StringRef ref;
      std::memcpy(&ref, in, sizeof ref);
      v.string_ = std::string(ref.view());
      break;
    }
  }
  return v;
}

int compare_values(const Value& a, const Value& b) {
  return visit_physical(a.type().physical(), [&](auto type) {
    decltype(type) x, y;
    a.write_physical(&x);  // strings: StringRefs into a and b
    b.write_physical(&y);
    return sql_compare(x, y);
  });
}

std::string format_double(double value) {
  if (std::isnan(value)) return "NaN";
  if (std::isinf(value)) return value > 0 ? "Infinity" : "-Infinity";
  if (value == 0) return std::signbit(value) ? "-0" : "0";
  // Shortest round-trip digits, laid out the way PostgreSQL's float8out does: plain notation
  // for decimal exponents in [-4, 15), scientific otherwise.
  char buffer[64];
  auto result = std::to_chars(buffer, buffer + sizeof buffer, value, std::chars_format::scientific);
  std::string sci(buffer, result.ptr);
  size_t e = sci.find('e');
  int exponent = std::stoi(sci.substr(e + 1));
  std::string mantissa = sci.substr(0, e);
  bool negative = mantissa[0] == '-';
  if (negative) mantissa.erase(0, 1);
  std::string digits;
  for (char c : mantissa)
    if (c != '.') digits += c;
  std::string out;
  if (exponent < -4 || exponent >= 15) {
    out = digits.substr(0, 1);
    if (digits.size() > 1) out += "." + digits.substr(1);
    char exp_buffer[16];
    std::snprintf(exp_buffer, sizeof exp_buffer, "e%c%02d", exponent < 0 ? '-' : '+',
                  exponent < 0 ? -exponent : exponent);
    out += exp_buffer;
  } else if (exponent < 0) {
    out = "0." + std::string(static_cast<size_t>(-exponent - 1), '0') + digits;
  } else {
    size_t integral = static_cast<size_t>(exponent) + 1;
    if (digits.size() <= integral) {
      out = digits + std::string(integral - digits.size(), '0');
    } else {
      out = digits.substr(0, integral) + "." + digits.substr(integral);
    }
  }
  return negative ? "-" + out : out;
}

std::string Value::to_string() const {
  if (null_) return "NULL";
  switch (type_.id) {
    case TypeId::kBoolean: return integral_ ? "t" : "f";
    case TypeId::kSmallInt:
    case TypeId::kInteger:
    case TypeId::kBigInt: return format_int128(integral_);
    case TypeId::kDecimal: return format_decimal(integral_, type_.scale);
    case TypeId::kDouble: return format_double(double_);
    case TypeId::kDate: return format_date(static_cast<int32_t>(integral_));
    case TypeId::kTimestamp: return format_timestamp(static_cast<int64_t>(integral_));
    case TypeId::kInterval: return format_interval(interval_);
    case TypeId::kChar:
    case TypeId::kVarchar:
    case TypeId::kText:
    case TypeId::kUnknown: return string_;
  }
  return "?";
}

bool Value::operator==(const Value& other) const {
  if (null_ || other.null_) return null_ == other.null_;
  switch (type_.physical()) {
    case PhysicalType::kDouble: return double_ == other.double_;
    case PhysicalType::kInterval: return compare_intervals(interval_, other.interval_) == 0;
    case PhysicalType::kString: return string_ == other.string_;
    default: return integral_ == other.integral_ && type_.scale == other.type_.scale;
  }
}

namespace {

// PostgreSQL names the type without its modifiers: numeric, not numeric(10,2).
[[noreturn]] void invalid_input(SqlType type, std::string_view text) {
  std::string name = type.id == TypeId::kDecimal ? "numeric" : type.to_string();
  throw Error("invalid input syntax for type " + name + ": \"" + std::string(text) + "\"");
}

std::string_view trim_spaces(std::string_view text) {
  while (!text.empty() && std::isspace(static_cast<unsigned char>(text.front()))) text.remove_prefix(1);
  while (!text.empty() && std::isspace(static_cast<unsigned char>(text.back()))) text.remove_suffix(1);
  return text;
}

Value fit_string(std::string text, SqlType type, CastKind kind) {
  text.resize(fitted_string_bytes(text, type, kind));
  return Value::string(std::move(text), type);
}

}  // namespace

namespace {

// The result of a numeric_casts.h cast as a Value, or its failure as floe::Error.
template <typename T>
T cast_or_throw(const char* failure, T value) {
  if (failure) throw Error(failure);
  return value;
}

Value integer_value(int64_t value, SqlType type) {
  switch (type.id) {
    case TypeId::kSmallInt: return Value::small_int(static_cast<int16_t>(value));
    case TypeId::kInteger: return Value::integer(static_cast<int32_t>(value));
    default: return Value::big_int(value);
  }
}

}  // namespace

Value make_integer(int128_t value, SqlType type) {
  int64_t out = 0;
  const char* failure = integer_to_integer(value, type.id, out);
  return integer_value(cast_or_throw(failure, out), type);
}

size_t fitted_string_bytes(std::string_view text, const SqlType& type, CastKind kind) {
  size_t bytes = text.size();
  // Fewer bytes than n are fewer characters than n: only longer text needs counting.
  if (type.length && bytes > type.length) {
    size_t allowed = utf8_prefix_bytes(text, type.length);
    if (allowed < bytes && kind == CastKind::kAssignment &&
        text.find_first_not_of(' ', allowed) != std::string_view::npos)
      throw Error("value too long for type " + type.to_string());
    bytes = allowed;
  }
  if (type.id == TypeId::kChar) {
    while (bytes > 0 && text[bytes - 1] == ' ') --bytes;
  }
  return bytes;
}

Value parse_value(std::string_view text, SqlType type, CastKind kind) {
  switch (type.id) {
    case TypeId::kBoolean: {
      std::string lower;
      for (char c : trim_spaces(text)) lower += static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
      if (lower == "t" || lower == "true" || lower == "yes" || lower == "on" || lower == "1")
        return Value::boolean(true);
      if (lower == "f" || lower == "false" || lower == "no" || lower == "off" || lower == "0")
        return Value::boolean(false);
      invalid_input(type, text);
    }
    case TypeId::kSmallInt:
    case TypeId::kInteger:
    case TypeId::kBigInt: {
      std::string_view digits = trim_spaces(text);
      if (!digits.empty() && digits.front() == '+') digits.remove_prefix(1);
      int64_t value = 0;
      auto result = std::from_chars(digits.data(), digits.data() + digits.size(), value);
      if (result.ec == std::errc::result_out_of_range)
        throw Error("value \"" + std::string(text) + "\" is out of range for type " + type.to_string());
      if (digits.empty() || result.ec != std::errc() || result.ptr != digits.data() + digits.size())
        invalid_input(type, text);
      int64_t fitted = 0;
      if (integer_to_integer(value, type.id, fitted))
        throw Error("value \"" + std::string(text) + "\" is out of range for type " + type.to_string());
      return integer_value(fitted, type);
    }
    case TypeId::kDecimal: {
      if (!is_decimal_text(text)) invalid_input(type, text);
      auto value = try_parse_decimal(text, type.precision, type.scale);
      if (!value) throw Error(kNumericOverflow);
      return Value::decimal(*value, type.precision, type.scale);
    }
    case TypeId::kDouble: {
      std::string_view trimmed = trim_spaces(text);
      std::string lower;
      for (char c : trimmed) lower += static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
      if (lower == "nan") return Value::double_value(std::numeric_limits<double>::quiet_NaN());
      if (lower == "infinity" || lower == "inf") return Value::double_value(HUGE_VAL);
      if (lower == "-infinity" || lower == "-inf") return Value::double_value(-HUGE_VAL);
      if (!trimmed.empty() && trimmed.front() == '+') trimmed.remove_prefix(1);
      double value = 0;
      auto result = std::from_chars(trimmed.data(), trimmed.data() + trimmed.size(), value);
      if (trimmed.empty() || result.ptr != trimmed.data() + trimmed.size()) invalid_input(type, text);
      // PostgreSQL's float8in: overflow to infinity and underflow to zero are errors.
      if (result.ec == std::errc::result_out_of_range)
        throw Error("\"" + std::string(text) + "\" is out of range for type " + type.to_string());
      if (result.ec != std::errc()) invalid_input(type, text);
      return Value::double_value(value);
    }
    case TypeId::kDate: {
      return Value::date(parse_date(text));
    }
    case TypeId::kTimestamp: return Value::timestamp(parse_timestamp(text));
    case TypeId::kInterval: return Value::interval(parse_interval(text));
    case TypeId::kChar:
    case TypeId::kVarchar:
    case TypeId::kText:
    case TypeId::kUnknown: return fit_string(std::string(text), type, kind);
  }
  invalid_input(type, text);
}

Value cast_value(const Value& value, SqlType target, CastKind kind) {
  if (value.is_null()) return Value::null(target);
  const SqlType& source = value.type();
  if (source == target) return value;
  if (source.is_string() || source.id == TypeId::kUnknown)
    return parse_value(value.as_string(), target, kind);
  if (target.is_string()) {
    // PostgreSQL: true::text is 'true', although a boolean column prints as t.
    if (source.id == TypeId::kBoolean)
      return fit_string(value.as_bool() ? "true" : "false", target, kind);
    return fit_string(value.to_string(), target, kind);
  }

  // The casts of numeric_casts.h, as for generated code and the vectorized engine.
  int64_t integer = 0;
  int128_t scaled = 0;
  switch (cast_family(target)) {
    case CastFamily::kBool:
      if (source.is_integer()) return Value::boolean(integer_to_bool(value.as_int128()));
      break;
    case CastFamily::kInteger:
      if (source.is_integer()) return make_integer(value.as_int128(), target);
      if (source.id == TypeId::kBoolean)
        return integer_value(bool_to_integer(value.as_bool()), target);
      if (source.id == TypeId::kDecimal) {
        const char* failure =
            decimal_to_integer(value.as_int128(), source.scale, target.id, integer);
        return integer_value(cast_or_throw(failure, integer), target);
      }
      if (source.id == TypeId::kDouble) {
        const char* failure = double_to_integer(value.as_double(), target.id, integer);
        return integer_value(cast_or_throw(failure, integer), target);
      }
      break;
    case CastFamily::kDecimal: {
      const char* failure = nullptr;
      if (source.id == TypeId::kDouble) {
        failure = double_to_decimal(value.as_double(), target.precision, target.scale, scaled);
      } else if (source.is_integer() || source.id == TypeId::kDecimal) {
        unsigned scale = source.id == TypeId::kDecimal ? source.scale : 0;
        failure =
            decimal_to_decimal(value.as_int128(), scale, target.precision, target.scale, scaled);
      } else {
        break;
      }
      return Value::decimal(cast_or_throw(failure, scaled), target.precision, target.scale);
    }
    case CastFamily::kDouble:
      if (source.is_integer()) return Value::double_value(static_cast<double>(value.as_int128()));
      if (source.id == TypeId::kDecimal)
        return Value::double_value(decimal_to_double(value.as_int128(), source.scale));
      break;
    case CastFamily::kDate:
      if (source.id == TypeId::kTimestamp) return Value::date(timestamp_to_date(value.as_int64()));
      break;
    case CastFamily::kTimestamp:
      if (source.id == TypeId::kDate) {
        int64_t micros = 0;
        const char* failure = date_to_timestamp(static_cast<int32_t>(value.as_int64()), micros);
        return Value::timestamp(cast_or_throw(failure, micros));
      }
      break;
    default: break;
  }
  throw Error("cannot cast type " + source.to_string() + " to " + target.to_string());
}

}  // namespace floe
