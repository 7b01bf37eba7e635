#include "engine/plan/correlation.h"

#include <algorithm>
#include <iterator>

#include "engine/plan/expression_utils.h"
#include "engine/plan/logical_walk.h"
#include "storage/stack_depth.h"

namespace floe::plan {

namespace {

void defined_columns(const LogicalOp& op, ColumnSet& out) {
  check_stack_depth();
  for (ColumnId id : output_columns(op)) out.insert(id);
  for (const LogicalOpPtr& child : op.children) defined_columns(*child, out);
}

}  // namespace

ColumnSet as_set(const std::vector<ColumnId>& ids) {
  return ColumnSet(ids.begin(), ids.end());
}

ColumnSet columns_of(const Expr& expr) {
  ColumnSet columns;
  collect_columns(expr, columns);
  return columns;
}

bool subset_of(const ColumnSet& columns, const ColumnSet& of) {
  return std::includes(of.begin(), of.end(), columns.begin(), columns.end());
}

bool intersects(const ColumnSet& a, const ColumnSet& b) {
  return std::any_of(a.begin(), a.end(), [&](ColumnId id) { return b.count(id) > 0; });
}

ColumnSet free_columns(LogicalOp& op) {
  ColumnSet referenced, defined, result;
  for_each_expression_in_tree(op, [&](ExprPtr& expr) { collect_columns(*expr, referenced); });
  defined_columns(op, defined);
  std::set_difference(referenced.begin(), referenced.end(), defined.begin(), defined.end(),
                      std::inserter(result, result.end()));
  return result;
}

}  // namespace floe::plan
