// Helpers over bound expressions shared by the binder and the optimizer.
#pragma once

#include <functional>
#include <set>
#include <vector>

#include "engine/plan/expression.h"

namespace floe::plan {

// A non-leaf expression; nullable when any child is.
ExprPtr make_expr(ExprKind kind, SqlType type, std::vector<ExprPtr> children, int position = -1);

// Structural equality (same kind, type, operator, constants and children).
bool expr_equal(const Expr& a, const Expr& b);

// Every kColumn id the expression reads (scalar subqueries are self-contained).
void collect_columns(const Expr& expr, std::set<ColumnId>& out);

// The conjuncts of a predicate (flattening nested ANDs); moves out of `predicate`.
void split_conjuncts(ExprPtr predicate, std::vector<ExprPtr>& out);
// AND of the predicates (the single one itself; null for none).
ExprPtr make_conjunction(std::vector<ExprPtr> predicates);

// The operator of the comparison with its operands swapped (a < b is b > a).
CompareOp mirrored(CompareOp op);

// Rewrites `expr` bottom-up: `rewrite` is called on every node after its children.
void transform_expr(ExprPtr& expr, const std::function<void(ExprPtr&)>& rewrite);

}  // namespace floe::plan
