// SELECT DISTINCT ON (keys) ... [ORDER BY ...]: the first row of each group of rows with
// equal keys, in ORDER BY order (any row of it without ORDER BY), as in PostgreSQL.
#pragma once

#include <vector>

#include "engine/plan/logical_plan.h"

namespace floe::sql {

// The rows of `input` that row_number() OVER (PARTITION BY keys ORDER BY order) numbers 1:
// a WindowOp, then a filter. Throws PostgreSQL's error unless the keys are the initial ORDER
// BY keys (in any order); `locations` are the keys' positions for it.
plan::LogicalOpPtr first_row_per_group(plan::LogicalOpPtr input, std::vector<plan::ExprPtr> keys,
                                       const std::vector<int>& locations,
                                       std::vector<plan::SortKey> order,
                                       plan::ColumnRegistry& registry);

}  // namespace floe::sql
