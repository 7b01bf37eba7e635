// Binds parse-tree expressions to typed plan expressions (engine/plan/expression.h),
// inserting the casts the typing contract requires.
#pragma once

#include "engine/plan/expression.h"
#include "engine/sql/bind_scope.h"
#include "engine/sql/pg_node.h"
#include "engine/sql/select_binder.h"

namespace floe::sql {

// Turns an aggregate call, or a window function call (OVER), into a reference to its result
// column, and binds grouping(). Absent where neither is allowed.
class AggregateBinder {
 public:
  virtual ~AggregateBinder() = default;
  virtual plan::ExprPtr bind_aggregate(const PgQuery__FuncCall& call) = 0;
  virtual plan::ExprPtr bind_window(const PgQuery__FuncCall& call) = 0;
  // grouping(a, b, ...): which of the arguments the current grouping set leaves out.
  virtual plan::ExprPtr bind_grouping(const PgQuery__GroupingFunc& call) = 0;
  // The expression of a GROUP BY item equal to this subquery, or null: a subquery the select
  // list repeats from GROUP BY must be that item's own expression to be found as the group.
  virtual plan::ExprPtr bound_group_subquery(const PgQuery__SubLink&) { return nullptr; }
};

class ExpressionBinder {
 public:
  // `clause` names the clause for errors ("WHERE", "GROUP BY", ...).
  ExpressionBinder(BindContext& context, const BindScope& scope, const char* clause,
                   AggregateBinder* aggregates = nullptr)
      : context_(context), scope_(scope), clause_(clause), aggregates_(aggregates) {}

  plan::ExprPtr bind(const Node* node);
  // A boolean expression; `what` names it for the type error ("WHERE", "AND", "CASE/WHEN").
  plan::ExprPtr bind_condition(const Node* node, const char* what);

  // Typed operators, shared with the statement binders.
  static plan::ExprPtr arithmetic(std::string_view op, plan::ExprPtr left, plan::ExprPtr right,
                                  int location);
  static plan::ExprPtr comparison(std::string_view op, plan::ExprPtr left, plan::ExprPtr right,
                                  int location);
  // a || b (operands that are not strings are cast to text).
  static plan::ExprPtr concatenation(plan::ExprPtr left, plan::ExprPtr right, int location);

 private:
  plan::ExprPtr bind_column_ref(const PgQuery__ColumnRef& ref);
  plan::ExprPtr bind_constant(const PgQuery__AConst& constant);
  plan::ExprPtr bind_type_cast(const PgQuery__TypeCast& cast);
  plan::ExprPtr bind_a_expr(const PgQuery__AExpr& expr);
  plan::ExprPtr bind_operator(const PgQuery__AExpr& expr);
  plan::ExprPtr bind_like(const PgQuery__AExpr& expr);
  plan::ExprPtr bind_like_escape(const PgQuery__FuncCall& call);
  plan::ExprPtr bind_in_list(const PgQuery__AExpr& expr);
  plan::ExprPtr bind_between(const PgQuery__AExpr& expr);
  plan::ExprPtr bind_bool_expr(const PgQuery__BoolExpr& expr);
  plan::ExprPtr bind_case(const PgQuery__CaseExpr& expr);
  plan::ExprPtr bind_coalesce(const PgQuery__CoalesceExpr& expr);
  plan::ExprPtr bind_null_test(const PgQuery__NullTest& test);
  plan::ExprPtr bind_sub_link(const PgQuery__SubLink& link);
  // expression_binder_quantified.cpp: IN / ANY / ALL with a subquery, row constructors.
  plan::ExprPtr quantified_subquery(const PgQuery__SubLink& link, BoundQuery query);
  std::vector<plan::ExprPtr> bind_row(const Node* node);
  plan::ExprPtr row_comparison(std::string_view op, const PgQuery__AExpr& expr);
  plan::ExprPtr row_in_list(const PgQuery__AExpr& expr);
  plan::ExprPtr bind_func_call(const PgQuery__FuncCall& call);
  // Date/time (expression_binder_datetime.cpp).
  plan::ExprPtr bind_extract(const PgQuery__FuncCall& call);
  plan::ExprPtr bind_sql_value_function(const PgQuery__SQLValueFunction& function);
  plan::ExprPtr statement_clock(const PgQuery__FuncCall& call);
  plan::ExprPtr bind_age(const PgQuery__FuncCall& call);
  // expression_binder_rewrites.cpp
  plan::ExprPtr bind_concat(const PgQuery__FuncCall& call, bool with_separator);
  plan::ExprPtr bind_nullif(const PgQuery__AExpr& expr);
  plan::ExprPtr bind_distinct(const PgQuery__AExpr& expr);
  plan::ExprPtr bind_boolean_test(const PgQuery__BooleanTest& test);
  plan::ExprPtr bind_min_max(const PgQuery__MinMaxExpr& expr);

  BindContext& context_;
  const BindScope& scope_;
  const char* clause_;
  AggregateBinder* aggregates_;
};

// Brings expressions to one common type (CASE results, IN lists, COALESCE arguments).
// Throws "<what> types X and Y cannot be matched" at `location`.
void unify_types(std::vector<plan::ExprPtr*> exprs, const char* what, int location);

}  // namespace floe::sql
