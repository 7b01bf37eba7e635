#include "engine/plan/expression_utils.h"

#include "storage/stack_depth.h"

namespace floe::plan {

ExprPtr make_expr(ExprKind kind, SqlType type, std::vector<ExprPtr> children, int position) {
  auto expr = std::make_unique<Expr>();
  expr->kind = kind;
  expr->type = type;
  expr->position = position;
  expr->nullable = false;
  for (const ExprPtr& child : children) expr->nullable |= child->nullable;
  expr->children = std::move(children);
  return expr;
}

bool expr_equal(const Expr& a, const Expr& b) {
  check_stack_depth();
  if (a.kind != b.kind || !(a.type == b.type) || a.children.size() != b.children.size())
    return false;
  switch (a.kind) {
    case ExprKind::kColumn:
      if (a.column != b.column) return false;
      break;
    case ExprKind::kConstant:
      if (a.constant.is_null() != b.constant.is_null() || !(a.constant == b.constant)) return false;
      break;
    case ExprKind::kArithmetic:
      if (a.arithmetic_op != b.arithmetic_op) return false;
      break;
    case ExprKind::kCompare:
      if (a.compare_op != b.compare_op) return false;
      break;
    case ExprKind::kIsNull:
    case ExprKind::kLike:
    case ExprKind::kInList:
      if (a.negated != b.negated) return false;
      break;
    case ExprKind::kExtract:
      if (a.date_part != b.date_part) return false;
      break;
    case ExprKind::kFunction:
      if (a.function != b.function) return false;
      break;
    case ExprKind::kParameter:
      if (a.parameter != b.parameter) return false;
      break;
    case ExprKind::kScalarSubquery:
    case ExprKind::kExists:
    case ExprKind::kInSubquery:
      if (a.subquery != b.subquery || a.negated != b.negated) return false;
      break;
    default:
      break;
  }
  for (size_t i = 0; i < a.children.size(); ++i)
    if (!expr_equal(*a.children[i], *b.children[i])) return false;
  return true;
}

void collect_columns(const Expr& expr, std::set<ColumnId>& out) {
  check_stack_depth();
  if (expr.kind == ExprKind::kColumn) out.insert(expr.column);
  for (const ExprPtr& child : expr.children) collect_columns(*child, out);
}

void split_conjuncts(ExprPtr predicate, std::vector<ExprPtr>& out) {
  check_stack_depth();
  if (!predicate) return;
  if (predicate->kind == ExprKind::kAnd) {
    for (ExprPtr& child : predicate->children) split_conjuncts(std::move(child), out);
    return;
  }
  out.push_back(std::move(predicate));
}

ExprPtr make_conjunction(std::vector<ExprPtr> predicates) {
  if (predicates.empty()) return nullptr;
  if (predicates.size() == 1) return std::move(predicates[0]);
  return make_expr(ExprKind::kAnd, SqlType::boolean(), std::move(predicates));
}

void transform_expr(ExprPtr& expr, const std::function<void(ExprPtr&)>& rewrite) {
  check_stack_depth();
  for (ExprPtr& child : expr->children) transform_expr(child, rewrite);
  rewrite(expr);
}

CompareOp mirrored(CompareOp op) {
  switch (op) {
    case CompareOp::kLess:
      return CompareOp::kGreater;
    case CompareOp::kLessEqual:
      return CompareOp::kGreaterEqual;
    case CompareOp::kGreater:
      return CompareOp::kLess;
    case CompareOp::kGreaterEqual:
      return CompareOp::kLessEqual;
    default:
      return op;
  }
}

}  // namespace floe::plan
