#include "engine/sql/type_rules.h"

#include <algorithm>

#include "engine/sql/statement_parameters.h"
#include "storage/error.h"
#include "storage/utf8.h"

namespace floe::sql {

namespace {

SqlType common_decimal(const SqlType& a, const SqlType& b) {
  SqlType x = as_decimal(a), y = as_decimal(b);
  int scale = std::max(x.scale, y.scale);
  int integral = std::max(x.precision - x.scale, y.precision - y.scale);
  int precision = std::min(integral + scale, static_cast<int>(kMaxDecimalPrecision));
  return SqlType::decimal(static_cast<uint8_t>(precision),
                          static_cast<uint8_t>(std::min(scale, precision)));
}

SqlType without_length(SqlType type) {
  if (type.is_string()) type.length = 0;
  return type;
}

// An untyped literal parsed as `target` under `kind`'s rules.
plan::ExprPtr convert_literal(const plan::Expr& literal, const SqlType& target, CastKind kind) {
  try {
    auto constant = plan::make_constant(cast_value(literal.constant, target, kind));
    constant->position = literal.position;
    return constant;
  } catch (const Error& error) {
    throw Error(error.what(), literal.position);
  }
}

}  // namespace

std::string type_name(const SqlType& type) {
  switch (type.id) {
    case TypeId::kDecimal:
      return "numeric";
    case TypeId::kTimestamp:
      return "timestamp without time zone";
    case TypeId::kChar:
      return "character";
    case TypeId::kVarchar:
      return "character varying";
    default:
      return type.to_string();
  }
}

int numeric_rank(TypeId id) {
  switch (id) {
    case TypeId::kSmallInt:
      return 0;
    case TypeId::kInteger:
      return 1;
    case TypeId::kBigInt:
      return 2;
    case TypeId::kDecimal:
      return 3;
    case TypeId::kDouble:
      return 4;
    default:
      return -1;
  }
}

bool is_unknown_literal(const plan::Expr& expr) {
  return (expr.kind == plan::ExprKind::kConstant || expr.kind == plan::ExprKind::kParameter) &&
         expr.type.id == TypeId::kUnknown;
}

SqlType as_decimal(const SqlType& type) {
  if (type.id == TypeId::kDecimal) return type;
  return SqlType::decimal(integer_decimal_precision(type.id), 0);
}

std::optional<SqlType> common_type(const SqlType& a, const SqlType& b) {
  if (a == b) return a;
  if (a.id == TypeId::kUnknown) return b;
  if (b.id == TypeId::kUnknown) return a;
  int rank_a = numeric_rank(a.id), rank_b = numeric_rank(b.id);
  if (rank_a >= 0 && rank_b >= 0) {
    if (a.id == TypeId::kDouble || b.id == TypeId::kDouble) return SqlType::double_type();
    if (a.id == TypeId::kDecimal || b.id == TypeId::kDecimal) return common_decimal(a, b);
    return rank_a > rank_b ? a : b;
  }
  if (a.is_temporal() && b.is_temporal()) return SqlType::timestamp();
  if (a.is_string() && b.is_string()) return SqlType::text();
  if (a.id == b.id) return a;  // interval, boolean
  return std::nullopt;
}

bool can_cast(const SqlType& source, const SqlType& target) {
  if (source.id == target.id || source.is_string() || target.is_string()) return true;
  if (source.id == TypeId::kUnknown) return true;
  if (source.is_numeric() && target.is_numeric()) return true;
  if (source.is_temporal() && target.is_temporal()) return true;
  bool int_bool = (source.id == TypeId::kInteger && target.id == TypeId::kBoolean) ||
                  (source.id == TypeId::kBoolean && target.id == TypeId::kInteger);
  return int_bool;
}

plan::ExprPtr coerce(plan::ExprPtr expr, const SqlType& target) {
  if (expr->type == target) return expr;
  if (expr->kind == plan::ExprKind::kParameter && expr->type.id == TypeId::kUnknown) {
    // $n takes the type without a length (PostgreSQL: varchar, not varchar(5)); its values
    // are compared and stored like that type's.
    StatementParameters::current()->deduce(expr->parameter, without_length(target));
    expr->type = target;
    return expr;
  }
  if (is_unknown_literal(*expr)) {
    if (!target.is_string()) return convert_literal(*expr, target, CastKind::kAssignment);
    plan::ExprPtr constant = convert_literal(*expr, without_length(target), CastKind::kAssignment);
    constant->type = target;
    constant->constant = constant->constant.is_null()
                             ? Value::null(target)
                             : Value::string(constant->constant.as_string(), target);
    return constant;
  }
  int position = expr->position;
  auto cast = plan::make_cast(std::move(expr), target);
  cast->position = position;
  return cast;
}

plan::ExprPtr explicit_cast(plan::ExprPtr expr, const SqlType& target) {
  if (is_unknown_literal(*expr) && expr->kind == plan::ExprKind::kConstant) return convert_literal(*expr, target, CastKind::kExplicit);
  return coerce(std::move(expr), target);
}

bool literal_fits(const plan::Expr& literal, const SqlType& type) {
  if (literal.constant.is_null() || type.length == 0) return true;
  std::string_view text = literal.constant.as_string();
  text = text.substr(0, fitted_string_bytes(text, without_length(type), CastKind::kExplicit));
  return utf8_length(text) <= type.length;
}

plan::ExprPtr resolve_unknown(plan::ExprPtr expr) {
  if (expr->type.id != TypeId::kUnknown) return expr;
  return coerce(std::move(expr), SqlType::text());
}

}  // namespace floe::sql
