// SELECT → logical plan: FROM (scans, inner joins), WHERE, GROUP BY / aggregates / HAVING,
// window functions, the select list, DISTINCT, ORDER BY, LIMIT / OFFSET.
//
// Plan shape, bottom up: scans joined in FROM order (JoinOp without keys, ON conditions as
// residuals; the optimizer turns them into hash joins) → FilterOp (WHERE) → AggregateOp →
// FilterOp (HAVING) → WindowOps (window_binder.h) → MapOp (computed select items) →
// AggregateOp (DISTINCT) → SortOp or LimitOp.
#pragma once

#include <vector>

#include "engine/plan/logical_plan.h"
#include "engine/sql/bind_scope.h"
#include "engine/sql/pg_node.h"

namespace floe::sql {

struct BoundQuery {
  plan::LogicalOpPtr root;
  std::vector<plan::LogicalPlan::Output> outputs;
};

// One query level. `outer` is the enclosing query's scope for subqueries (else null).
BoundQuery bind_query(const PgQuery__SelectStmt& stmt, BindContext& context,
                      const BindScope* outer);

// A whole SELECT statement.
plan::LogicalPlan bind_select(const PgQuery__SelectStmt& stmt, const Catalog& catalog);

}  // namespace floe::sql
