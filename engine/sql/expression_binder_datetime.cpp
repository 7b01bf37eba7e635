// Date/time forms that are not ordinary functions: EXTRACT / date_part, whose first argument
// names a field, age(x), and the statement clock (now(), CURRENT_DATE, CURRENT_TIMESTAMP,
// LOCALTIMESTAMP), which is one reading per statement taken when binding starts
// (BindContext::statement_time), so every row and every worker sees the same value.
#include <cctype>

#include "engine/plan/expression_utils.h"
#include "engine/sql/expression_binder.h"
#include "engine/sql/function_resolution.h"
#include "engine/sql/type_rules.h"
#include "storage/error.h"

namespace floe::sql {

using plan::ExprKind;
using plan::ExprPtr;

namespace {

std::string lowered(const std::string& text) {
  std::string out;
  for (char c : text) out += static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return out;
}

// A timestamp with `precision` fractional digits (CURRENT_TIMESTAMP(p)), rounded.
int64_t round_to_precision(int64_t micros, int32_t precision) {
  if (precision < 0 || precision >= 6) return micros;
  int64_t unit = 1;
  for (int32_t i = precision; i < 6; ++i) unit *= 10;
  return floor_div(micros + unit / 2, unit) * unit;
}

ExprPtr clock_constant(Value value, int location) {
  ExprPtr constant = plan::make_constant(std::move(value));
  constant->position = location;
  constant->nullable = false;
  return constant;
}

}  // namespace

// EXTRACT(field FROM x) is numeric; date_part('field', x) is the same value as double
// precision, and takes a date as a timestamp (PostgreSQL defines it that way).
ExprPtr ExpressionBinder::bind_extract(const PgQuery__FuncCall& call) {
  bool date_part = last_name(call.funcname, call.n_funcname) == "date_part";
  if (call.n_args != 2) throw Error("function date_part expects two arguments", call.location);
  ExprPtr field = bind(call.args[0]);
  if (field->kind != ExprKind::kConstant || field->constant.is_null() ||
      !(field->type.is_string() || field->type.id == TypeId::kUnknown))
    throw NotSupported("EXTRACT with a non-constant field", call.location);
  ExprPtr source = bind(call.args[1]);
  if (is_unknown_literal(*source)) source = coerce(std::move(source), SqlType::timestamp());
  if (date_part && source->type.id == TypeId::kDate)
    source = coerce(std::move(source), SqlType::timestamp());
  TypeId id = source->type.id;
  if (id != TypeId::kDate && id != TypeId::kTimestamp && id != TypeId::kInterval)
    throw Error(std::string("function ") + (date_part ? "date_part" : "pg_catalog.extract") + "(unknown, " +
                    source->type.to_string() + ") does not exist",
                call.location);
  std::string unit = lowered(field->constant.as_string());
  auto part = parse_date_part(unit);
  if (!part)
    throw Error("unit \"" + unit + "\" not recognized for type " + type_name(source->type),
                field->position);
  auto result_type = extract_type(*part, id);
  if (!result_type)
    throw Error("unit \"" + unit + "\" not supported for type " + type_name(source->type),
                field->position);
  if (*part == DatePart::kJulian && id == TypeId::kTimestamp)
    throw NotSupported("EXTRACT(julian FROM timestamp)", field->position);
  std::vector<ExprPtr> children;
  children.push_back(std::move(source));
  auto result = plan::make_expr(
      ExprKind::kExtract, SqlType::decimal(result_type->precision, result_type->scale),
      std::move(children), call.location);
  result->date_part = *part;
  if (date_part) return coerce(std::move(result), SqlType::double_type());
  return result;
}

// now(), transaction_timestamp(), statement_timestamp(): PostgreSQL's timestamptz, here a
// timestamp (UTC) since floe has no time zones. Without transactions all three are the
// statement's start.
ExprPtr ExpressionBinder::statement_clock(const PgQuery__FuncCall& call) {
  if (call.n_args != 0) {
    std::string signature;
    for (size_t i = 0; i < call.n_args; ++i)
      signature += (i ? ", " : "") + bind(call.args[i])->type.to_string();
    throw Error("function " + std::string(last_name(call.funcname, call.n_funcname)) + "(" +
                    signature + ") does not exist",
                call.location);
  }
  return clock_constant(Value::timestamp(context_.statement_time), call.location);
}

// age(x) is age(CURRENT_DATE at midnight, x), the registry's two-argument age.
ExprPtr ExpressionBinder::bind_age(const PgQuery__FuncCall& call) {
  std::vector<ExprPtr> arguments;
  int64_t midnight = floor_div(context_.statement_time, kMicrosPerDay) * kMicrosPerDay;
  arguments.push_back(clock_constant(Value::timestamp(midnight), call.location));
  arguments.push_back(bind(call.args[0]));
  return resolve_function("age", std::move(arguments), call.location);
}

ExprPtr ExpressionBinder::bind_sql_value_function(const PgQuery__SQLValueFunction& function) {
  int64_t now = context_.statement_time;
  switch (function.op) {
    case PG_QUERY__SQLVALUE_FUNCTION_OP__SVFOP_CURRENT_DATE:
      return clock_constant(Value::date(static_cast<int32_t>(floor_div(now, kMicrosPerDay))),
                            function.location);
    case PG_QUERY__SQLVALUE_FUNCTION_OP__SVFOP_CURRENT_TIMESTAMP:
    case PG_QUERY__SQLVALUE_FUNCTION_OP__SVFOP_LOCALTIMESTAMP:
      return clock_constant(Value::timestamp(now), function.location);
    case PG_QUERY__SQLVALUE_FUNCTION_OP__SVFOP_CURRENT_TIMESTAMP_N:
    case PG_QUERY__SQLVALUE_FUNCTION_OP__SVFOP_LOCALTIMESTAMP_N:
      return clock_constant(Value::timestamp(round_to_precision(now, function.typmod)),
                            function.location);
    case PG_QUERY__SQLVALUE_FUNCTION_OP__SVFOP_CURRENT_TIME:
    case PG_QUERY__SQLVALUE_FUNCTION_OP__SVFOP_CURRENT_TIME_N:
    case PG_QUERY__SQLVALUE_FUNCTION_OP__SVFOP_LOCALTIME:
    case PG_QUERY__SQLVALUE_FUNCTION_OP__SVFOP_LOCALTIME_N:
      throw NotSupported("the time type (CURRENT_TIME, LOCALTIME)", function.location);
    default:
      throw NotSupported("CURRENT_USER and similar", function.location);
  }
}

}  // namespace floe::sql
