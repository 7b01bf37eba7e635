#include "engine/sql/type_name.h"

#include <charconv>
#include <string>
#include <vector>

#include "storage/error.h"

namespace floe::sql {

namespace {

std::vector<int64_t> type_modifiers(const PgQuery__TypeName& type_name) {
  std::vector<int64_t> result;
  for (size_t i = 0; i < type_name.n_typmods; ++i)
    result.push_back(constant_integer(type_name.typmods[i], "type modifier"));
  return result;
}

SqlType resolve_numeric(const std::vector<int64_t>& mods, int location) {
  if (mods.empty()) return SqlType::decimal(kDefaultNumericPrecision, kDefaultNumericScale);
  int64_t precision = mods[0];
  int64_t scale = mods.size() > 1 ? mods[1] : 0;
  if (precision < 1 || precision > kMaxDecimalPrecision)
    throw Error("NUMERIC precision " + std::to_string(precision) + " must be between 1 and " +
                    std::to_string(kMaxDecimalPrecision),
                location);
  if (scale < 0 || scale > precision)
    throw Error("NUMERIC scale " + std::to_string(scale) + " must be between 0 and precision " +
                    std::to_string(precision),
                location);
  return SqlType::decimal(static_cast<uint8_t>(precision), static_cast<uint8_t>(scale));
}

uint32_t string_length(const std::vector<int64_t>& mods, uint32_t missing, const std::string& name,
                       int location) {
  if (mods.empty()) return missing;
  if (mods[0] < 1) throw Error("length for type " + name + " must be at least 1", location);
  return static_cast<uint32_t>(mods[0]);
}

}  // namespace

SqlType resolve_type_name(const PgQuery__TypeName& type_name) {
  std::string name(last_name(type_name.names, type_name.n_names));
  int location = type_name.location;
  if (type_name.n_array_bounds) throw NotSupported("array types", location);
  std::vector<int64_t> mods =
      name == "interval" ? std::vector<int64_t>() : type_modifiers(type_name);
  if (name == "bool" || name == "boolean") return SqlType::boolean();
  if (name == "int2" || name == "smallint") return SqlType::small_int();
  if (name == "int4" || name == "int" || name == "integer") return SqlType::integer();
  if (name == "int8" || name == "bigint") return SqlType::big_int();
  if (name == "numeric" || name == "decimal") return resolve_numeric(mods, location);
  if (name == "float4" || name == "float8" || name == "real" || name == "float")
    return SqlType::double_type();
  if (name == "date") return SqlType::date();
  if (name == "timestamp") return SqlType::timestamp();
  if (name == "interval") return SqlType::interval();
  if (name == "bpchar" || name == "char" || name == "character")
    return SqlType::char_type(string_length(mods, 0, "character", location));
  if (name == "varchar")
    return SqlType::varchar(string_length(mods, 0, "character varying", location));
  if (name == "text") return SqlType::text();
  throw NotSupported("type " + qualified_name(type_name.names, type_name.n_names), location);
}

Interval interval_literal(std::string_view text, const PgQuery__TypeName& type_name) {
  if (type_name.n_typmods == 0) return parse_interval(text);
  int64_t mask = constant_integer(type_name.typmods[0], "interval field");
  const char* unit = nullptr;
  switch (mask) {
    case 1 << 2:
      unit = "year";
      break;
    case 1 << 1:
      unit = "month";
      break;
    case 1 << 3:
      unit = "day";
      break;
    case 1 << 10:
      unit = "hour";
      break;
    case 1 << 11:
      unit = "minute";
      break;
    case 1 << 12:
      unit = "second";
      break;
    default:
      throw NotSupported("interval field ranges", type_name.location);
  }
  int64_t quantity = 0;
  auto parsed = std::from_chars(text.data(), text.data() + text.size(), quantity);
  if (parsed.ec != std::errc() || parsed.ptr != text.data() + text.size())
    throw NotSupported("interval text with a field qualifier other than a whole number",
                       type_name.location);
  return interval_from_unit(quantity, unit);
}

}  // namespace floe::sql
