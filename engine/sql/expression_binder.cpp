#include "engine/sql/expression_binder.h"

#include "engine/sql/statement_parameters.h"

#include <charconv>

#include "engine/plan/expression_utils.h"
#include "engine/sql/select_binder.h"
#include "engine/sql/type_name.h"
#include "engine/sql/type_rules.h"
#include "storage/error.h"
#include "storage/stack_depth.h"

namespace floe::sql {

using plan::ExprKind;
using plan::ExprPtr;

plan::ExprPtr ExpressionBinder::bind(const Node* node) {
  check_stack_depth();
  switch (node->node_case) {
    case PG_QUERY__NODE__NODE_COLUMN_REF:
      return bind_column_ref(*node->column_ref);
    case PG_QUERY__NODE__NODE_A_CONST:
      return bind_constant(*node->a_const);
    case PG_QUERY__NODE__NODE_TYPE_CAST:
      return bind_type_cast(*node->type_cast);
    case PG_QUERY__NODE__NODE_A_EXPR:
      return bind_a_expr(*node->a_expr);
    case PG_QUERY__NODE__NODE_BOOL_EXPR:
      return bind_bool_expr(*node->bool_expr);
    case PG_QUERY__NODE__NODE_CASE_EXPR:
      return bind_case(*node->case_expr);
    case PG_QUERY__NODE__NODE_COALESCE_EXPR:
      return bind_coalesce(*node->coalesce_expr);
    case PG_QUERY__NODE__NODE_NULL_TEST:
      return bind_null_test(*node->null_test);
    case PG_QUERY__NODE__NODE_SUB_LINK:
      return bind_sub_link(*node->sub_link);
    case PG_QUERY__NODE__NODE_FUNC_CALL:
      return bind_func_call(*node->func_call);
    case PG_QUERY__NODE__NODE_GROUPING_FUNC:
      if (!aggregates_)
        throw Error(std::string("grouping operations are not allowed in ") + clause_,
                    node->grouping_func->location);
      return aggregates_->bind_grouping(*node->grouping_func);
    case PG_QUERY__NODE__NODE_BOOLEAN_TEST:
      return bind_boolean_test(*node->boolean_test);
    case PG_QUERY__NODE__NODE_PARAM_REF:
      return StatementParameters::bind(node->param_ref->number, node->param_ref->location);
    case PG_QUERY__NODE__NODE_COLLATE_CLAUSE:
      throw NotSupported("COLLATE");
    case PG_QUERY__NODE__NODE_A_ARRAY_EXPR:
      throw NotSupported("arrays");
    case PG_QUERY__NODE__NODE_ROW_EXPR:
      throw NotSupported("row constructors");
    case PG_QUERY__NODE__NODE_MIN_MAX_EXPR:
      return bind_min_max(*node->min_max_expr);
    case PG_QUERY__NODE__NODE_SQLVALUE_FUNCTION:
      return bind_sql_value_function(*node->sqlvalue_function);
    default:
      throw NotSupported("this kind of expression", node_location(node));
  }
}

plan::ExprPtr ExpressionBinder::bind_condition(const Node* node, const char* what) {
  ExprPtr expr = bind(node);
  if (is_unknown_literal(*expr)) return coerce(std::move(expr), SqlType::boolean());
  if (expr->type.id != TypeId::kBoolean)
    throw Error(std::string("argument of ") + what + " must be type boolean, not type " +
                    expr->type.to_string(),
                expr->position);
  return expr;
}

plan::ExprPtr ExpressionBinder::bind_column_ref(const PgQuery__ColumnRef& ref) {
  if (ref.n_fields > 2) throw NotSupported("qualified names with schemas", ref.location);
  const Node* last = ref.fields[ref.n_fields - 1];
  if (last->node_case == PG_QUERY__NODE__NODE_A_STAR)
    throw Error("* is not allowed here", ref.location);
  std::string_view table = ref.n_fields == 2 ? node_string(ref.fields[0]) : std::string_view();
  const ScopeColumn& column = scope_.resolve(table, node_string(last), ref.location);
  ExprPtr expr = plan::make_column(column.id, column.type, column.nullable);
  expr->position = ref.location;
  return expr;
}

plan::ExprPtr ExpressionBinder::bind_constant(const PgQuery__AConst& constant) {
  Value value;
  if (!constant.isnull) {
    switch (constant.val_case) {
      case PG_QUERY__A__CONST__VAL_IVAL:
        value = Value::integer(constant.ival->ival);
        break;
      case PG_QUERY__A__CONST__VAL_FVAL: {
        std::string_view text = constant.fval->fval;
        int64_t integer = 0;
        auto parsed = std::from_chars(text.data(), text.data() + text.size(), integer);
        unsigned precision = 0, scale = 0;
        if (parsed.ec == std::errc() && parsed.ptr == text.data() + text.size()) {
          value = Value::big_int(integer);
        } else if (decimal_literal_shape(text, precision, scale) &&
                   precision <= kMaxDecimalPrecision) {
          value = parse_value(text, SqlType::decimal(static_cast<uint8_t>(std::max(precision, 1u)),
                                                     static_cast<uint8_t>(scale)));
        } else {
          value = parse_value(text, SqlType::double_type());
        }
        break;
      }
      case PG_QUERY__A__CONST__VAL_BOOLVAL:
        value = Value::boolean(constant.boolval->boolval);
        break;
      case PG_QUERY__A__CONST__VAL_SVAL:
        value = Value::string(constant.sval->sval, SqlType::unknown());
        break;
      default:
        throw NotSupported("bit string literals", constant.location);
    }
  }
  ExprPtr expr = plan::make_constant(std::move(value));
  expr->position = constant.location;
  return expr;
}

plan::ExprPtr ExpressionBinder::bind_type_cast(const PgQuery__TypeCast& cast) {
  SqlType target = resolve_type_name(*cast.type_name);
  ExprPtr operand = bind(cast.arg);
  int location = cast.location >= 0 ? cast.location : operand->position;
  if (target.id == TypeId::kInterval && is_unknown_literal(*operand) &&
      !operand->constant.is_null()) {
    try {
      ExprPtr constant = plan::make_constant(
          Value::interval(interval_literal(operand->constant.as_string(), *cast.type_name)));
      constant->position = operand->position;
      return constant;
    } catch (const NotSupported&) {
      throw;
    } catch (const Error& error) {
      throw Error(error.what(), operand->position);
    }
  }
  if (!can_cast(operand->type, target))
    throw Error("cannot cast type " + operand->type.to_string() + " to " + target.to_string(),
                location);
  ExprPtr result = explicit_cast(std::move(operand), target);
  if (result->kind == ExprKind::kCast) result->position = location;
  return result;
}

plan::ExprPtr ExpressionBinder::bind_bool_expr(const PgQuery__BoolExpr& expr) {
  static const char* const kNames[] = {"", "AND", "OR", "NOT"};
  const char* name = kNames[expr.boolop];
  std::vector<ExprPtr> args;
  for (size_t i = 0; i < expr.n_args; ++i) args.push_back(bind_condition(expr.args[i], name));
  ExprKind kind = expr.boolop == PG_QUERY__BOOL_EXPR_TYPE__AND_EXPR  ? ExprKind::kAnd
                  : expr.boolop == PG_QUERY__BOOL_EXPR_TYPE__OR_EXPR ? ExprKind::kOr
                                                                     : ExprKind::kNot;
  return plan::make_expr(kind, SqlType::boolean(), std::move(args), expr.location);
}

void unify_types(std::vector<ExprPtr*> exprs, const char* what, int location) {
  SqlType type = SqlType::unknown();
  for (ExprPtr* expr : exprs) {
    auto common = common_type(type, (*expr)->type);
    if (!common)
      throw Error(std::string(what) + " types " + type_name(type) + " and " +
                      type_name((*expr)->type) + " cannot be matched",
                  (*expr)->position >= 0 ? (*expr)->position : location);
    type = *common;
  }
  if (type.id == TypeId::kUnknown) type = SqlType::text();
  // A literal too long for its companions' CHAR(n)/VARCHAR(n) makes the result unbounded
  // (PostgreSQL's bpchar, varchar), so that no value exceeds its type.
  for (ExprPtr* expr : exprs)
    if (is_unknown_literal(**expr) && !literal_fits(**expr, type)) type.length = 0;
  for (ExprPtr* expr : exprs) *expr = coerce(std::move(*expr), type);
}

plan::ExprPtr ExpressionBinder::bind_case(const PgQuery__CaseExpr& expr) {
  ExprPtr subject = expr.arg ? bind(expr.arg) : nullptr;
  std::vector<ExprPtr> children;
  for (size_t i = 0; i < expr.n_args; ++i) {
    const PgQuery__CaseWhen& when = *expr.args[i]->case_when;
    if (subject) {
      children.push_back(comparison("=", subject->clone(), bind(when.expr), when.location));
    } else {
      children.push_back(bind_condition(when.expr, "CASE/WHEN"));
    }
    children.push_back(bind(when.result));
  }
  children.push_back(expr.defresult ? bind(expr.defresult) : plan::make_constant(Value()));
  std::vector<ExprPtr*> results;
  for (size_t i = 1; i < children.size(); i += 2) results.push_back(&children[i]);
  results.push_back(&children.back());
  unify_types(results, "CASE", expr.location);
  SqlType type = children.back()->type;
  auto result = plan::make_expr(ExprKind::kCase, type, {}, expr.location);
  for (size_t i = 1; i < children.size(); i += 2) result->nullable |= children[i]->nullable;
  result->nullable |= children.back()->nullable;
  result->children = std::move(children);
  return result;
}

plan::ExprPtr ExpressionBinder::bind_coalesce(const PgQuery__CoalesceExpr& expr) {
  std::vector<ExprPtr> args;
  for (size_t i = 0; i < expr.n_args; ++i) args.push_back(bind(expr.args[i]));
  std::vector<ExprPtr*> refs;
  for (ExprPtr& arg : args) refs.push_back(&arg);
  unify_types(refs, "COALESCE", expr.location);
  SqlType type = args[0]->type;
  bool nullable = true;
  for (const ExprPtr& arg : args) nullable &= arg->nullable;
  auto result = plan::make_expr(ExprKind::kCoalesce, type, std::move(args), expr.location);
  result->nullable = nullable;
  return result;
}

plan::ExprPtr ExpressionBinder::bind_null_test(const PgQuery__NullTest& test) {
  std::vector<ExprPtr> args;
  args.push_back(resolve_unknown(bind(test.arg)));
  auto result =
      plan::make_expr(ExprKind::kIsNull, SqlType::boolean(), std::move(args), test.location);
  result->negated = test.nulltesttype == PG_QUERY__NULL_TEST_TYPE__IS_NOT_NULL;
  result->nullable = false;
  return result;
}

plan::ExprPtr ExpressionBinder::bind_sub_link(const PgQuery__SubLink& link) {
  switch (link.sub_link_type) {
    case PG_QUERY__SUB_LINK_TYPE__EXPR_SUBLINK:
    case PG_QUERY__SUB_LINK_TYPE__EXISTS_SUBLINK:
    case PG_QUERY__SUB_LINK_TYPE__ANY_SUBLINK:  // IN, op ANY / SOME
    case PG_QUERY__SUB_LINK_TYPE__ALL_SUBLINK:  // op ALL
      break;
    default:
      throw NotSupported("this kind of subquery", link.location);
  }
  if (aggregates_) {
    if (plan::ExprPtr group = aggregates_->bound_group_subquery(link)) return group;
  }
  BoundQuery query = bind_query(*link.subselect->select_stmt, context_, &scope_);
  if (link.sub_link_type == PG_QUERY__SUB_LINK_TYPE__EXISTS_SUBLINK) {
    auto result = plan::make_expr(ExprKind::kExists, SqlType::boolean(), {}, link.location);
    result->subquery = std::shared_ptr<plan::LogicalOp>(std::move(query.root));
    return result;
  }
  if (link.sub_link_type != PG_QUERY__SUB_LINK_TYPE__EXPR_SUBLINK)
    return quantified_subquery(link, std::move(query));
  if (query.outputs.size() != 1) {
    const char* problem =
        query.outputs.empty() ? "subquery must return a column" : "subquery has too many columns";
    throw Error(problem, link.location);
  }
  const plan::ColumnInfo& info = context_.registry[query.outputs[0].id];
  auto result = plan::make_expr(ExprKind::kScalarSubquery, info.type, {}, link.location);
  result->nullable = true;
  result->column = query.outputs[0].id;
  result->subquery = std::shared_ptr<plan::LogicalOp>(std::move(query.root));
  return result;
}

}  // namespace floe::sql
