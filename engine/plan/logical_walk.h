// Visiting the expressions held by logical operators.
#pragma once

#include <functional>
#include <map>

#include "engine/plan/logical_plan.h"

namespace floe::plan {

using ExprVisitor = std::function<void(ExprPtr&)>;

// Every top-level expression of one operator (not its children's).
void for_each_expression(LogicalOp& op, const ExprVisitor& visit);
// Every top-level expression of the whole tree under `root`.
void for_each_expression_in_tree(LogicalOp& root, const ExprVisitor& visit);

// A deep copy of an operator tree.
LogicalOpPtr clone_tree(const LogicalOp& op);
// A deep copy whose operators define new columns (registered like the originals), so that it
// can sit in the same plan as `op`. `renamed` receives old id -> new id.
LogicalOpPtr clone_with_fresh_columns(const LogicalOp& op, ColumnRegistry& registry,
                                      std::map<ColumnId, ColumnId>& renamed);

// Renames the columns `expr` reads (old id -> new id), also inside the plans of its
// subqueries, which become copies.
void rename_columns(ExprPtr& expr, const std::map<ColumnId, ColumnId>& renamed);

}  // namespace floe::plan
