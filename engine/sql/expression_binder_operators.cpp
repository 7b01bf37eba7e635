// Operators: arithmetic, comparison, LIKE, IN, BETWEEN, || (typing rules of
// engine/plan/expression.h).
#include <algorithm>

#include "engine/plan/expression_utils.h"
#include "engine/sql/expression_binder.h"
#include "engine/sql/function_resolution.h"
#include "engine/sql/type_rules.h"
#include "storage/error.h"

namespace floe::sql {

using plan::ArithmeticOp;
using plan::CompareOp;
using plan::ExprKind;
using plan::ExprPtr;

namespace {

[[noreturn]] void no_operator(std::string_view op, const SqlType& left, const SqlType& right,
                              int location) {
  throw Error("operator does not exist: " + left.to_string() + " " + std::string(op) + " " +
                  right.to_string(),
              location);
}

ExprPtr make_arithmetic(ArithmeticOp op, SqlType type, ExprPtr left, ExprPtr right, int location) {
  std::vector<ExprPtr> children;
  children.push_back(std::move(left));
  children.push_back(std::move(right));
  auto expr = plan::make_expr(ExprKind::kArithmetic, type, std::move(children), location);
  expr->arithmetic_op = op;
  return expr;
}

std::optional<ArithmeticOp> arithmetic_op(std::string_view op) {
  if (op == "+") return ArithmeticOp::kAdd;
  if (op == "-") return ArithmeticOp::kSubtract;
  if (op == "*") return ArithmeticOp::kMultiply;
  if (op == "/") return ArithmeticOp::kDivide;
  if (op == "%") return ArithmeticOp::kModulo;
  return std::nullopt;
}

std::optional<CompareOp> compare_op(std::string_view op) {
  if (op == "=") return CompareOp::kEqual;
  if (op == "<>") return CompareOp::kNotEqual;
  if (op == "<") return CompareOp::kLess;
  if (op == "<=") return CompareOp::kLessEqual;
  if (op == ">") return CompareOp::kGreater;
  if (op == ">=") return CompareOp::kGreaterEqual;
  return std::nullopt;
}

// date/timestamp/interval arithmetic; nullptr when the operands are not temporal.
ExprPtr temporal_arithmetic(ArithmeticOp op, std::string_view name, ExprPtr& left, ExprPtr& right,
                            int location) {
  TypeId l = left->type.id, r = right->type.id;
  bool add = op == ArithmeticOp::kAdd, sub = op == ArithmeticOp::kSubtract;
  bool scale = op == ArithmeticOp::kMultiply || op == ArithmeticOp::kDivide;
  if ((add && (r == TypeId::kDate || r == TypeId::kTimestamp) &&
       (left->type.is_integer() || l == TypeId::kInterval)) ||
      (op == ArithmeticOp::kMultiply && r == TypeId::kInterval && left->type.is_numeric()))
    std::swap(left, right), std::swap(l, r);
  if (l == TypeId::kDate && right->type.is_integer() && (add || sub))
    return make_arithmetic(op, SqlType::date(), std::move(left),
                           coerce(std::move(right), SqlType::integer()), location);
  if (l == TypeId::kDate && r == TypeId::kDate && sub)
    return make_arithmetic(op, SqlType::integer(), std::move(left), std::move(right), location);
  if ((l == TypeId::kDate || l == TypeId::kTimestamp) && r == TypeId::kInterval && (add || sub))
    return make_arithmetic(op, SqlType::timestamp(), std::move(left), std::move(right), location);
  if (left->type.is_temporal() && right->type.is_temporal() && sub)  // a date is midnight
    return make_arithmetic(op, SqlType::interval(), coerce(std::move(left), SqlType::timestamp()),
                           coerce(std::move(right), SqlType::timestamp()), location);
  if (l == TypeId::kInterval && r == TypeId::kInterval && (add || sub))
    return make_arithmetic(op, SqlType::interval(), std::move(left), std::move(right), location);
  if (l == TypeId::kInterval && right->type.is_numeric() && scale)  // interval * / float8
    return make_arithmetic(op, SqlType::interval(), std::move(left),
                           coerce(std::move(right), SqlType::double_type()), location);
  if (left->type.is_temporal() || right->type.is_temporal() || l == TypeId::kInterval ||
      r == TypeId::kInterval)
    no_operator(name, left->type, right->type, location);
  return nullptr;
}

// interval * '2', interval / NULL: the literal is the factor, a double precision (PostgreSQL
// has only interval * float8 and interval / float8).
void scale_factor_literal(ArithmeticOp op, ExprPtr& left, ExprPtr& right) {
  bool multiply = op == ArithmeticOp::kMultiply;
  if (!multiply && op != ArithmeticOp::kDivide) return;
  if (left->type.id == TypeId::kInterval && is_unknown_literal(*right))
    right = coerce(std::move(right), SqlType::double_type());
  else if (multiply && right->type.id == TypeId::kInterval && is_unknown_literal(*left))
    left = coerce(std::move(left), SqlType::double_type());
}

ExprPtr numeric_arithmetic(ArithmeticOp op, std::string_view name, ExprPtr left, ExprPtr right,
                           int location) {
  const SqlType& l = left->type;
  const SqlType& r = right->type;
  if (!l.is_numeric() || !r.is_numeric()) no_operator(name, l, r, location);
  if (l.id == TypeId::kDouble || r.id == TypeId::kDouble ||
      (op == ArithmeticOp::kDivide && (l.id == TypeId::kDecimal || r.id == TypeId::kDecimal))) {
    SqlType type = SqlType::double_type();
    return make_arithmetic(op, type, coerce(std::move(left), type), coerce(std::move(right), type),
                           location);
  }
  if (l.id != TypeId::kDecimal && r.id != TypeId::kDecimal) {
    SqlType type = *common_type(l, r);
    return make_arithmetic(op, type, coerce(std::move(left), type), coerce(std::move(right), type),
                           location);
  }
  SqlType a = as_decimal(l), b = as_decimal(r);
  if (op == ArithmeticOp::kMultiply) {
    int scale = a.scale + b.scale;
    if (scale > kMaxDecimalPrecision)
      throw NotSupported("numeric multiplication with a result scale above 38", location);
    int precision = std::min(a.precision + b.precision, static_cast<int>(kMaxDecimalPrecision));
    return make_arithmetic(
        op, SqlType::decimal(static_cast<uint8_t>(precision), static_cast<uint8_t>(scale)),
        coerce(std::move(left), a), coerce(std::move(right), b), location);
  }
  int scale = std::max(a.scale, b.scale);
  int integral = std::max(a.precision - a.scale, b.precision - b.scale);
  int extra = op == ArithmeticOp::kModulo ? 0 : 1;
  int precision = std::min(integral + extra + scale, static_cast<int>(kMaxDecimalPrecision));
  SqlType type = SqlType::decimal(static_cast<uint8_t>(precision), static_cast<uint8_t>(scale));
  return make_arithmetic(op, type, coerce(std::move(left), type), coerce(std::move(right), type),
                         location);
}

// An untyped literal next to a typed operand takes the operand's type.
void resolve_literal_pair(ExprPtr& left, ExprPtr& right) {
  bool l = is_unknown_literal(*left), r = is_unknown_literal(*right);
  if (l && !r) left = coerce(std::move(left), right->type);
  if (r && !l) right = coerce(std::move(right), left->type);
}

}  // namespace

ExprPtr ExpressionBinder::concatenation(ExprPtr left, ExprPtr right, int location) {
  if (!left->type.is_string() && !right->type.is_string() && !is_unknown_literal(*left) &&
      !is_unknown_literal(*right))
    no_operator("||", left->type, right->type, location);
  auto to_string = [](ExprPtr e) {
    return e->type.is_string() ? std::move(e) : coerce(std::move(e), SqlType::text());
  };
  std::vector<ExprPtr> operands;
  operands.push_back(to_string(std::move(left)));
  operands.push_back(to_string(std::move(right)));
  return resolve_function("||", std::move(operands), location, true);
}

namespace {

std::string_view operator_name(const PgQuery__AExpr& expr) {
  return last_name(expr.name, expr.n_name);
}

}  // namespace

ExprPtr ExpressionBinder::arithmetic(std::string_view name, ExprPtr left, ExprPtr right,
                                     int location) {
  ArithmeticOp op = *arithmetic_op(name);
  scale_factor_literal(op, left, right);
  resolve_literal_pair(left, right);
  if (ExprPtr temporal = temporal_arithmetic(op, name, left, right, location)) return temporal;
  return numeric_arithmetic(op, name, std::move(left), std::move(right), location);
}

ExprPtr ExpressionBinder::comparison(std::string_view name, ExprPtr left, ExprPtr right,
                                     int location) {
  resolve_literal_pair(left, right);
  auto type = common_type(left->type, right->type);
  if (!type) no_operator(name, left->type, right->type, location);
  if (type->id == TypeId::kUnknown) type = SqlType::text();
  std::vector<ExprPtr> children;
  children.push_back(coerce(std::move(left), *type));
  children.push_back(coerce(std::move(right), *type));
  auto expr =
      plan::make_expr(ExprKind::kCompare, SqlType::boolean(), std::move(children), location);
  expr->compare_op = *compare_op(name);
  return expr;
}

ExprPtr ExpressionBinder::bind_a_expr(const PgQuery__AExpr& expr) {
  switch (expr.kind) {
    case PG_QUERY__A__EXPR__KIND__AEXPR_OP:
      return bind_operator(expr);
    case PG_QUERY__A__EXPR__KIND__AEXPR_LIKE:
      return bind_like(expr);
    case PG_QUERY__A__EXPR__KIND__AEXPR_IN:
      return bind_in_list(expr);
    case PG_QUERY__A__EXPR__KIND__AEXPR_BETWEEN:
    case PG_QUERY__A__EXPR__KIND__AEXPR_NOT_BETWEEN:
      return bind_between(expr);
    case PG_QUERY__A__EXPR__KIND__AEXPR_ILIKE:
      return bind_like(expr);
    case PG_QUERY__A__EXPR__KIND__AEXPR_SIMILAR:
      throw NotSupported("SIMILAR TO", expr.location);
    case PG_QUERY__A__EXPR__KIND__AEXPR_DISTINCT:
    case PG_QUERY__A__EXPR__KIND__AEXPR_NOT_DISTINCT:
      return bind_distinct(expr);
    case PG_QUERY__A__EXPR__KIND__AEXPR_NULLIF:
      return bind_nullif(expr);
    case PG_QUERY__A__EXPR__KIND__AEXPR_OP_ANY:
    case PG_QUERY__A__EXPR__KIND__AEXPR_OP_ALL:
      throw NotSupported("ANY / ALL", expr.location);
    default:
      throw NotSupported("BETWEEN SYMMETRIC", expr.location);
  }
}

ExprPtr ExpressionBinder::bind_operator(const PgQuery__AExpr& expr) {
  std::string_view name = operator_name(expr);
  if (!expr.lexpr && is_registry_function(name) && name != "-" && name != "+") {
    std::vector<ExprPtr> operand;
    operand.push_back(bind(expr.rexpr));
    return resolve_function(name, std::move(operand), expr.location, true);
  }
  if (!expr.lexpr) {
    ExprPtr operand = bind(expr.rexpr);
    if (is_unknown_literal(*operand)) operand = coerce(std::move(operand), SqlType::double_type());
    if (name == "+" && operand->type.is_numeric()) return operand;
    if (name != "-" || !(operand->type.is_numeric() || operand->type.id == TypeId::kInterval))
      throw Error("operator does not exist: " + std::string(name) + " " + operand->type.to_string(),
                  expr.location);
    SqlType type = operand->type;
    std::vector<ExprPtr> children;
    children.push_back(std::move(operand));
    return plan::make_expr(ExprKind::kNegate, type, std::move(children), expr.location);
  }
  if (expr.lexpr->node_case == PG_QUERY__NODE__NODE_ROW_EXPR &&
      expr.rexpr->node_case == PG_QUERY__NODE__NODE_ROW_EXPR)
    return row_comparison(name, expr);
  ExprPtr left = bind(expr.lexpr);
  ExprPtr right = bind(expr.rexpr);
  if (arithmetic_op(name))
    return arithmetic(name, std::move(left), std::move(right), expr.location);
  if (compare_op(name)) return comparison(name, std::move(left), std::move(right), expr.location);
  if (name == "||") return concatenation(std::move(left), std::move(right), expr.location);
  if (name == "~~" || name == "!~~" || name == "~~*" || name == "!~~*") return bind_like(expr);
  if (is_registry_function(name)) {
    std::vector<ExprPtr> operands;
    operands.push_back(std::move(left));
    operands.push_back(std::move(right));
    return resolve_function(name, std::move(operands), expr.location, true);
  }
  throw NotSupported("operator " + std::string(name), expr.location);
}

ExprPtr ExpressionBinder::bind_like(const PgQuery__AExpr& expr) {
  std::string_view name = operator_name(expr);
  ExprPtr value = resolve_unknown(bind(expr.lexpr));
  ExprPtr pattern = expr.rexpr->node_case == PG_QUERY__NODE__NODE_FUNC_CALL
                        ? bind_like_escape(*expr.rexpr->func_call)
                        : resolve_unknown(bind(expr.rexpr));
  if (!value->type.is_string() || !pattern->type.is_string())
    no_operator(name, value->type, pattern->type, expr.location);
  bool ignore_case = name == "~~*" || name == "!~~*";
  if (ignore_case) {  // x ILIKE p is lower(x) LIKE lower(p), as in PostgreSQL
    auto lower = [&](ExprPtr operand) {
      std::vector<ExprPtr> argument;
      argument.push_back(std::move(operand));
      return resolve_function("lower", std::move(argument), expr.location);
    };
    value = lower(std::move(value));
    pattern = lower(std::move(pattern));
  }
  std::vector<ExprPtr> children;
  children.push_back(std::move(value));
  children.push_back(std::move(pattern));
  auto result =
      plan::make_expr(ExprKind::kLike, SqlType::boolean(), std::move(children), expr.location);
  result->negated = name == "!~~" || name == "!~~*";
  return result;
}

// PostgreSQL parses `x LIKE p ESCAPE e` as `x ~~ like_escape(p, e)`. The runtime's LIKE uses
// backslash as its escape, so a constant pattern is rewritten into that form here.
ExprPtr ExpressionBinder::bind_like_escape(const PgQuery__FuncCall& call) {
  if (call.n_args != 2) throw NotSupported("LIKE ... ESCAPE with this form", call.location);
  ExprPtr pattern = resolve_unknown(bind(call.args[0]));
  ExprPtr escape = resolve_unknown(bind(call.args[1]));
  if (pattern->kind != ExprKind::kConstant || escape->kind != ExprKind::kConstant ||
      !pattern->type.is_string() || !escape->type.is_string())
    throw NotSupported("LIKE ... ESCAPE with a non-constant pattern", call.location);
  if (pattern->constant.is_null() || escape->constant.is_null())
    return plan::make_constant(Value::null(SqlType::text()));
  const std::string& escape_text = escape->constant.as_string();
  if (escape_text.size() > 1)
    throw Error("invalid escape string", call.location);
  std::string rewritten;
  const std::string& text = pattern->constant.as_string();
  for (size_t i = 0; i < text.size(); ++i) {
    if (!escape_text.empty() && text[i] == escape_text[0]) {
      if (++i == text.size()) throw Error("LIKE pattern must not end with escape character", call.location);
      rewritten += '\\';
      rewritten += text[i];
    } else if (text[i] == '\\') {
      rewritten += "\\\\";  // a literal backslash when backslash is not the escape
    } else {
      rewritten += text[i];
    }
  }
  return plan::make_constant(Value::string(std::move(rewritten)));
}

ExprPtr ExpressionBinder::bind_in_list(const PgQuery__AExpr& expr) {
  if (expr.lexpr->node_case == PG_QUERY__NODE__NODE_ROW_EXPR) return row_in_list(expr);
  bool negated = operator_name(expr) == "<>";
  std::vector<ExprPtr> children;
  children.push_back(bind(expr.lexpr));
  const PgQuery__List& list = *expr.rexpr->list;
  for (size_t i = 0; i < list.n_items; ++i) children.push_back(bind(list.items[i]));
  std::vector<ExprPtr*> refs;
  for (ExprPtr& child : children) refs.push_back(&child);
  unify_types(refs, "IN", expr.location);
  bool constant_list = std::all_of(children.begin() + 1, children.end(),
                                   [](const ExprPtr& c) { return c->kind == ExprKind::kConstant; });
  if (constant_list) {
    auto result =
        plan::make_expr(ExprKind::kInList, SqlType::boolean(), std::move(children), expr.location);
    result->negated = negated;
    return result;
  }
  // Non-constant lists become OR of equalities (AND of inequalities for NOT IN).
  std::vector<ExprPtr> terms;
  for (size_t i = 1; i < children.size(); ++i)
    terms.push_back(comparison(negated ? "<>" : "=", children[0]->clone(), std::move(children[i]),
                               expr.location));
  if (terms.size() == 1) return std::move(terms[0]);
  return plan::make_expr(negated ? ExprKind::kAnd : ExprKind::kOr, SqlType::boolean(),
                         std::move(terms), expr.location);
}

ExprPtr ExpressionBinder::bind_between(const PgQuery__AExpr& expr) {
  bool negated = expr.kind == PG_QUERY__A__EXPR__KIND__AEXPR_NOT_BETWEEN;
  ExprPtr value = bind(expr.lexpr);
  const PgQuery__List& bounds = *expr.rexpr->list;
  std::vector<ExprPtr> terms;
  terms.push_back(
      comparison(negated ? "<" : ">=", value->clone(), bind(bounds.items[0]), expr.location));
  terms.push_back(
      comparison(negated ? ">" : "<=", std::move(value), bind(bounds.items[1]), expr.location));
  return plan::make_expr(negated ? ExprKind::kOr : ExprKind::kAnd, SqlType::boolean(),
                         std::move(terms), expr.location);
}

}  // namespace floe::sql
