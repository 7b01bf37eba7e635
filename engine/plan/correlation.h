// Column sets of plans and expressions, for finding a subquery's correlation: the columns its
// plan reads but does not produce, which the binder resolved in an enclosing query.
#pragma once

#include <set>
#include <vector>

#include "engine/plan/logical_plan.h"

namespace floe::plan {

using ColumnSet = std::set<ColumnId>;

ColumnSet as_set(const std::vector<ColumnId>& ids);
ColumnSet columns_of(const Expr& expr);
bool subset_of(const ColumnSet& columns, const ColumnSet& of);
bool intersects(const ColumnSet& a, const ColumnSet& b);

// The columns a plan reads but does not produce: its correlation with enclosing queries.
ColumnSet free_columns(LogicalOp& op);

}  // namespace floe::plan
