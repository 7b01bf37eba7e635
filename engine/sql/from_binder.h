// The FROM clause: table scans and inner joins, in FROM order.
#pragma once

#include "engine/plan/logical_plan.h"
#include "engine/sql/bind_scope.h"
#include "engine/sql/pg_node.h"

namespace floe::sql {

// Adds every table to `scope`. Comma-separated items become JoinOps without keys; JOIN ... ON
// conditions become the JoinOp's residual. No FROM clause: a ValuesOp of one empty row.
plan::LogicalOpPtr bind_from_clause(Node* const* items, size_t count, BindContext& context,
                                    BindScope& scope);

}  // namespace floe::sql
