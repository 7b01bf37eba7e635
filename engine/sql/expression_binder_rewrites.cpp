// Functions and tests whose NULL behaviour is not strict, bound as rewrites into other
// expressions (so each keeps one definition): concat, concat_ws, NULLIF, IS [NOT] DISTINCT
// FROM, IS [NOT] TRUE/FALSE/UNKNOWN, and GREATEST/LEAST (kGreatest/kLeast).
#include "engine/plan/expression_utils.h"
#include "engine/sql/expression_binder.h"
#include "engine/sql/function_resolution.h"
#include "engine/sql/type_rules.h"
#include "storage/error.h"

namespace floe::sql {

using plan::ExprKind;
using plan::ExprPtr;

namespace {

// An argument of concat as text, in its type's output format (which for booleans is 't' or
// 'f', not the 'true' or 'false' of a cast to text).
ExprPtr as_text(ExprPtr expr) {
  if (expr->type.id != TypeId::kBoolean)
    return expr->type.is_string() ? std::move(expr) : coerce(std::move(expr), SqlType::text());
  std::vector<ExprPtr> children;
  children.push_back(expr->clone());
  children.push_back(plan::make_constant(Value::string("t")));
  std::vector<ExprPtr> negated;
  negated.push_back(std::move(expr));
  children.push_back(plan::make_expr(ExprKind::kNot, SqlType::boolean(), std::move(negated)));
  children.push_back(plan::make_constant(Value::string("f")));
  children.push_back(plan::make_constant(Value::null(SqlType::text())));
  return plan::make_expr(ExprKind::kCase, SqlType::text(), std::move(children));
}

// The expression, or '' when it is NULL.
ExprPtr empty_if_null(ExprPtr text) {
  SqlType type = text->type;
  std::vector<ExprPtr> children;
  children.push_back(std::move(text));
  children.push_back(plan::make_constant(Value::string("", type)));
  auto result = plan::make_expr(ExprKind::kCoalesce, type, std::move(children));
  result->nullable = false;
  return result;
}

ExprPtr is_null(ExprPtr operand, bool negated) {
  std::vector<ExprPtr> children;
  children.push_back(std::move(operand));
  auto result = plan::make_expr(ExprKind::kIsNull, SqlType::boolean(), std::move(children));
  result->negated = negated;
  result->nullable = false;
  return result;
}

ExprPtr boolean_or_default(ExprPtr value, bool default_value) {
  std::vector<ExprPtr> children;
  children.push_back(std::move(value));
  children.push_back(plan::make_constant(Value::boolean(default_value)));
  auto result = plan::make_expr(ExprKind::kCoalesce, SqlType::boolean(), std::move(children));
  result->nullable = false;
  return result;
}

ExprPtr negation(ExprPtr operand) {
  std::vector<ExprPtr> children;
  children.push_back(std::move(operand));
  return plan::make_expr(ExprKind::kNot, SqlType::boolean(), std::move(children));
}

}  // namespace

// concat(a, ...): the arguments as text, NULLs left out. concat_ws(sep, a, ...): the
// non-NULL arguments joined by sep, NULL when sep is: every argument is prefixed by sep
// (which makes it NULL with it) and the first separator is cut off again.
ExprPtr ExpressionBinder::bind_concat(const PgQuery__FuncCall& call, bool with_separator) {
  size_t first = with_separator ? 1 : 0;
  if (call.n_args <= first) {
    throw Error(
        std::string("function ") + (with_separator ? "concat_ws" : "concat") + "() does not exist",
        call.location);
  }
  ExprPtr separator = with_separator ? as_text(bind(call.args[0])) : nullptr;
  ExprPtr result;
  for (size_t i = first; i < call.n_args; ++i) {
    ExprPtr text = as_text(bind(call.args[i]));
    if (separator) text = concatenation(separator->clone(), std::move(text), call.location);
    text = empty_if_null(std::move(text));
    result =
        result ? concatenation(std::move(result), std::move(text), call.location) : std::move(text);
  }
  if (!separator) return result;
  std::vector<ExprPtr> length;
  length.push_back(std::move(separator));
  ExprPtr start = arithmetic("+", resolve_function("length", std::move(length), call.location),
                             plan::make_constant(Value::integer(1)), call.location);
  std::vector<ExprPtr> children;
  children.push_back(std::move(result));
  children.push_back(std::move(start));
  return resolve_function("substring", std::move(children), call.location);
}

// NULLIF(a, b) = CASE WHEN a = b THEN NULL ELSE a END, of a's type.
ExprPtr ExpressionBinder::bind_nullif(const PgQuery__AExpr& expr) {
  ExprPtr left = bind(expr.lexpr);
  ExprPtr right = bind(expr.rexpr);
  if (is_unknown_literal(*left))
    left = coerce(std::move(left), is_unknown_literal(*right) ? SqlType::text() : right->type);
  ExprPtr equal = comparison("=", left->clone(), std::move(right), expr.location);
  SqlType type = left->type;
  std::vector<ExprPtr> children;
  children.push_back(std::move(equal));
  children.push_back(plan::make_constant(Value::null(type)));
  children.push_back(std::move(left));
  auto result = plan::make_expr(ExprKind::kCase, type, std::move(children), expr.location);
  result->nullable = true;
  return result;
}

// a IS DISTINCT FROM b: CASE WHEN a IS NULL THEN b IS NOT NULL WHEN b IS NULL THEN TRUE
// ELSE a <> b END (IS NOT DISTINCT FROM: the negation of each branch). Never NULL.
ExprPtr ExpressionBinder::bind_distinct(const PgQuery__AExpr& expr) {
  bool distinct = expr.kind == PG_QUERY__A__EXPR__KIND__AEXPR_DISTINCT;
  ExprPtr compared =
      comparison(distinct ? "<>" : "=", bind(expr.lexpr), bind(expr.rexpr), expr.location);
  ExprPtr left = compared->children[0]->clone();
  ExprPtr right = compared->children[1]->clone();
  std::vector<ExprPtr> children;
  children.push_back(is_null(std::move(left), false));
  children.push_back(is_null(right->clone(), distinct));
  children.push_back(is_null(std::move(right), false));
  children.push_back(plan::make_constant(Value::boolean(distinct)));
  children.push_back(std::move(compared));
  auto result =
      plan::make_expr(ExprKind::kCase, SqlType::boolean(), std::move(children), expr.location);
  result->nullable = false;
  return result;
}

// x IS TRUE = COALESCE(x, FALSE), x IS FALSE = NOT COALESCE(x, TRUE), x IS UNKNOWN = x IS
// NULL; the NOT forms negate them. Never NULL.
ExprPtr ExpressionBinder::bind_boolean_test(const PgQuery__BooleanTest& test) {
  static const char* const kNames[] = {
      "", "IS TRUE", "IS NOT TRUE", "IS FALSE", "IS NOT FALSE", "IS UNKNOWN", "IS NOT UNKNOWN"};
  ExprPtr operand = bind_condition(test.arg, kNames[test.booltesttype]);
  ExprPtr result;
  switch (test.booltesttype) {
    case PG_QUERY__BOOL_TEST_TYPE__IS_TRUE:
      result = boolean_or_default(std::move(operand), false);
      break;
    case PG_QUERY__BOOL_TEST_TYPE__IS_NOT_TRUE:
      result = negation(boolean_or_default(std::move(operand), false));
      break;
    case PG_QUERY__BOOL_TEST_TYPE__IS_FALSE:
      result = negation(boolean_or_default(std::move(operand), true));
      break;
    case PG_QUERY__BOOL_TEST_TYPE__IS_NOT_FALSE:
      result = boolean_or_default(std::move(operand), true);
      break;
    case PG_QUERY__BOOL_TEST_TYPE__IS_UNKNOWN:
      result = is_null(std::move(operand), false);
      break;
    default:
      result = is_null(std::move(operand), true);
      break;
  }
  result->position = test.location;
  return result;
}

// GREATEST / LEAST: the arguments in one type; NULLs are left out, NULL only when all are.
ExprPtr ExpressionBinder::bind_min_max(const PgQuery__MinMaxExpr& expr) {
  bool greatest = expr.op == PG_QUERY__MIN_MAX_OP__IS_GREATEST;
  std::vector<ExprPtr> args;
  for (size_t i = 0; i < expr.n_args; ++i) args.push_back(bind(expr.args[i]));
  std::vector<ExprPtr*> refs;
  for (ExprPtr& arg : args) refs.push_back(&arg);
  unify_types(refs, greatest ? "GREATEST" : "LEAST", expr.location);
  SqlType type = args[0]->type;
  bool nullable = true;
  for (const ExprPtr& arg : args) nullable &= arg->nullable;
  auto result = plan::make_expr(greatest ? ExprKind::kGreatest : ExprKind::kLeast, type,
                                std::move(args), expr.location);
  result->nullable = nullable;
  return result;
}

}  // namespace floe::sql
