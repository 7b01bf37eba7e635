// Window function calls (`f(...) OVER (...)`, `OVER w`, WINDOW clauses) → WindowOps. The
// select binder hands each call it meets in the select list and ORDER BY here; the bound
// calls become one WindowOp per distinct window (PARTITION BY + ORDER BY), placed above
// grouping and HAVING and below the select list's MapOp, as in PostgreSQL.
#pragma once

#include <functional>
#include <vector>

#include "engine/plan/logical_plan.h"
#include "engine/sql/bind_scope.h"
#include "engine/sql/pg_node.h"
#include "engine/sql/window_frame_binder.h"

namespace floe::sql {

class AggregateBinder;

// An aggregate call typed the way GROUP BY types it, for use as a window function.
struct TypedAggregate {
  plan::AggregateFunction function;
  plan::ExprPtr argument;   // null for count(*)
  plan::ExprPtr delimiter;  // string_agg
  SqlType type;
};

bool is_window_function_name(std::string_view name);

class WindowBinder {
 public:
  using AggregateTyper = std::function<TypedAggregate(const PgQuery__FuncCall&)>;

  // `aggregates` binds aggregates inside window arguments and keys (sum(sum(x)) OVER ...).
  WindowBinder(const PgQuery__SelectStmt& stmt, BindContext& context, const BindScope& scope,
               AggregateBinder& aggregates, AggregateTyper type_aggregate);

  // A reference to the call's result column.
  plan::ExprPtr bind(const PgQuery__FuncCall& call);

  bool empty() const { return windows_.empty(); }
  // Every bound expression (arguments, PARTITION BY and ORDER BY keys), e.g. to replace
  // grouped expressions by the group's columns.
  void for_each_expression(const std::function<void(plan::ExprPtr&)>& visit);
  // The WindowOps over `input`, one per window.
  plan::LogicalOpPtr apply(plan::LogicalOpPtr input);

 private:
  // A window definition with its references (OVER (w ...), WINDOW w2 AS (w1 ...)) resolved.
  struct Definition {
    std::vector<const Node*> partitions;
    std::vector<const Node*> order;
    FrameClause frame;
  };
  Definition resolve(const PgQuery__WindowDef& def) const;
  const PgQuery__WindowDef* named(std::string_view name, int location) const;
  void bind_function(const PgQuery__FuncCall& call, plan::WindowOp::Function& function,
                     SqlType& type, bool& nullable);
  plan::ExprPtr bind_argument(const Node* node);

  const PgQuery__SelectStmt& stmt_;
  BindContext& context_;
  const BindScope& scope_;
  AggregateBinder& aggregates_;
  AggregateTyper type_aggregate_;
  bool binding_ = false;        // inside a window function's arguments or window
  bool in_definition_ = false;  // inside its PARTITION BY or ORDER BY
  std::vector<std::unique_ptr<plan::WindowOp>> windows_;
};

}  // namespace floe::sql
