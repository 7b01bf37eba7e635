// Constant folding: constant subexpressions are evaluated at plan time (e.g. date '1998-12-01'
// - interval '90' day), AND/OR drop constant operands, and a DATE column compared with a
// midnight TIMESTAMP constant is compared with a DATE constant instead, so scans compare
// int32 days. Constant subexpressions are evaluated by the vectorized expression executor
// (engine/vector), so folding gives the answer and the error the query would.
#include "engine/plan/expression_utils.h"
#include "engine/plan/logical_walk.h"
#include "engine/plan/optimizer.h"
#include "engine/vector/expression_executor.h"
#include "runtime/function_registry.h"
#include "storage/date_time.h"
#include "storage/error.h"

namespace floe::plan {

namespace {

bool is_boolean_constant(const Expr& expr, bool value) {
  return expr.kind == ExprKind::kConstant && !expr.constant.is_null() &&
         expr.constant.as_bool() == value;
}

// Whether `expr` can become a constant: all its children are constants, and it is neither
// a subquery nor a volatile function (random() differs per row). A $n parameter is no
// constant: a prepared plan runs with many values.
bool foldable(const Expr& expr) {
  if (expr.kind == ExprKind::kConstant || expr.kind == ExprKind::kColumn ||
      expr.kind == ExprKind::kParameter || is_subquery(expr.kind))
    return false;
  if (expr.kind == ExprKind::kFunction && expr.function->is_volatile) return false;
  for (const ExprPtr& child : expr.children)
    if (child->kind != ExprKind::kConstant) return false;
  return true;
}

void fold_node(ExprPtr& expr) {
  if (expr->kind == ExprKind::kConstant || expr->kind == ExprKind::kColumn) return;
  if (foldable(*expr)) {
    try {
      int position = expr->position;
      expr = make_constant(vectorized::evaluate_scalar(*expr));
      expr->position = position;
      return;
    } catch (const Error&) {
      return;  // left to run time, which reports it only if the row is ever evaluated
    }
  }
  if (expr->kind == ExprKind::kAnd || expr->kind == ExprKind::kOr) {
    bool is_and = expr->kind == ExprKind::kAnd;
    std::vector<ExprPtr> kept;
    for (ExprPtr& child : expr->children) {
      if (is_boolean_constant(*child, !is_and)) {
        expr = std::move(child);  // FALSE AND x = FALSE, TRUE OR x = TRUE
        return;
      }
      if (!is_boolean_constant(*child, is_and)) kept.push_back(std::move(child));
    }
    if (kept.empty())
      expr = make_constant(Value::boolean(is_and));
    else if (kept.size() == 1)
      expr = std::move(kept[0]);
    else
      expr->children = std::move(kept);
  }
}

// CAST(date_column AS timestamp) <op> TIMESTAMP 'midnight' → date_column <op> DATE 'day'.
void compare_dates_as_dates(ExprPtr& expr) {
  if (expr->kind != ExprKind::kCompare) return;
  for (int side = 0; side < 2; ++side) {
    ExprPtr& cast = expr->children[side];
    ExprPtr& constant = expr->children[1 - side];
    if (cast->kind != ExprKind::kCast || cast->type.id != TypeId::kTimestamp ||
        cast->children[0]->type.id != TypeId::kDate || constant->kind != ExprKind::kConstant ||
        constant->constant.is_null())
      continue;
    int64_t micros = constant->constant.as_int64();
    if (micros % kMicrosPerDay != 0) continue;
    constant = make_constant(Value::date(static_cast<int32_t>(micros / kMicrosPerDay)));
    cast = std::move(cast->children[0]);
    return;
  }
}

}  // namespace

void fold_constants(LogicalPlan& plan) {
  for_each_expression_in_tree(*plan.root, [](ExprPtr& expr) {
    transform_expr(expr, [](ExprPtr& node) {
      fold_node(node);
      compare_dates_as_dates(node);
    });
  });
}

}  // namespace floe::plan
