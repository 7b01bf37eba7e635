// SELECT → logical plan: FROM (scans, inner joins), WHERE, GROUP BY / aggregates / HAVING,
// window functions, the select list, DISTINCT, ORDER BY, LIMIT / OFFSET.
//
// Plan shape, bottom up: scans joined in FROM order (JoinOp without keys, ON conditions as
// residuals; the optimizer turns them into hash joins) → FilterOp (WHERE) → AggregateOp →
// FilterOp (HAVING) → WindowOps (window_binder.h) → MapOp (computed select items) →
// AggregateOp (DISTINCT) → SortOp or LimitOp.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "engine/plan/logical_plan.h"
#include "engine/sql/bind_scope.h"
#include "engine/sql/pg_node.h"

namespace floe::sql {

struct BoundQuery {
  plan::LogicalOpPtr root;
  std::vector<plan::LogicalPlan::Output> outputs;
  // Only when asked for (a set operation's branch), per output: the untyped literal (NULL,
  // 'text') that output is, or null. Its column is produced by no operator: the set
  // operation gives it the type PostgreSQL resolves from the other branches.
  std::vector<plan::ExprPtr> untyped_outputs;
};

// One query level: a SELECT, a set operation or a VALUES list. `outer` is the enclosing
// query's scope for subqueries (else null).
BoundQuery bind_query(const PgQuery__SelectStmt& stmt, BindContext& context, const BindScope* outer,
                      bool keep_untyped_outputs = false);

// The name PostgreSQL gives an output column for a select-list (or RETURNING) expression
// without an alias: a column's, a function's or a cast's name, or none ("?column?").
std::optional<std::string> figure_column_name(const Node* node);

// Puts a WITH clause's queries in scope for one query level.
class WithQueries {
 public:
  WithQueries(const PgQuery__WithClause* with, BindContext& context);
  ~WithQueries();
  WithQueries(const WithQueries&) = delete;
  WithQueries& operator=(const WithQueries&) = delete;

 private:
  BindContext& context_;
  size_t outer_count_;
};

// An ORDER BY item's direction (ASC/DESC, NULLS FIRST/LAST with PostgreSQL's defaults); the
// key's expression is left empty.
plan::SortKey sort_direction(const PgQuery__SortBy& sort);

// `root` ordered by `keys` (a SortOp) with the statement's LIMIT / OFFSET, or a LimitOp
// without keys.
plan::LogicalOpPtr add_sort_and_limit(plan::LogicalOpPtr root, std::vector<plan::SortKey> keys,
                                      const PgQuery__SelectStmt& stmt, BindContext& context);

// A whole SELECT statement.
plan::LogicalPlan bind_select(const PgQuery__SelectStmt& stmt, const Catalog& catalog);

}  // namespace floe::sql
