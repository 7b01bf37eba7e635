// Functions in FROM: generate_series over integers, numerics and timestamps.
#pragma once

#include "engine/plan/logical_plan.h"
#include "engine/sql/bind_scope.h"
#include "engine/sql/pg_node.h"

namespace floe::sql {

// Adds the function's result to `scope` as a table (named by the alias, else the function;
// its column named by the column alias, else the table alias, else the function).
plan::LogicalOpPtr bind_table_function(const PgQuery__RangeFunction& range, BindContext& context,
                                       BindScope& scope);

}  // namespace floe::sql
