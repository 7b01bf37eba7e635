// Functions in FROM: generate_series over integers, numerics and timestamps, and the
// set-returning functions of runtime/table_function.h (string_to_table, regexp_split_to_table).
#pragma once

#include "engine/plan/logical_plan.h"
#include "engine/sql/bind_scope.h"
#include "engine/sql/pg_node.h"

namespace floe::sql {

// Adds the function's result to `scope` as a table (named by the alias, else the function;
// its column named by the column alias, else the table alias, else the function; WITH
// ORDINALITY adds the row number column "ordinality").
plan::LogicalOpPtr bind_table_function(const PgQuery__RangeFunction& range, BindContext& context,
                                       BindScope& scope);

}  // namespace floe::sql
