// The FROM clause: table scans and inner joins, in FROM order.
#pragma once

#include "engine/plan/logical_plan.h"
#include "engine/sql/bind_scope.h"
#include "engine/sql/pg_node.h"
#include "engine/sql/select_binder.h"

namespace floe::sql {

// Adds every table to `scope`. Comma-separated items become JoinOps without keys; JOIN ... ON
// conditions become the JoinOp's residual. No FROM clause: a ValuesOp of one empty row.
plan::LogicalOpPtr bind_from_clause(Node* const* items, size_t count, BindContext& context,
                                    BindScope& scope);

// A scan of all columns of `table`, added to `scope` as `alias`.
plan::LogicalOpPtr bind_scan(const Table& table, const std::string& alias, BindContext& context,
                             BindScope& scope, int location);

// A query's result as a table of the FROM clause (derived table, WITH query, view): its plan
// is a leaf of the join tree. `names` rename its columns, from the first on.
plan::LogicalOpPtr add_query_table(BoundQuery query, const std::string& alias,
                                   const std::vector<std::string>& names, BindContext& context,
                                   BindScope& scope, int location);

std::vector<std::string> string_list(Node* const* nodes, size_t count);

}  // namespace floe::sql
