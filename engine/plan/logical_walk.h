// Visiting the expressions held by logical operators.
#pragma once

#include <functional>

#include "engine/plan/logical_plan.h"

namespace floe::plan {

using ExprVisitor = std::function<void(ExprPtr&)>;

// Every top-level expression of one operator (not its children's).
void for_each_expression(LogicalOp& op, const ExprVisitor& visit);
// Every top-level expression of the whole tree under `root`.
void for_each_expression_in_tree(LogicalOp& root, const ExprVisitor& visit);

// A deep copy of an operator tree.
LogicalOpPtr clone_tree(const LogicalOp& op);

}  // namespace floe::plan
