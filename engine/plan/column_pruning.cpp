// Column pruning: scans read only the columns some operator above them uses, and maps
// compute only columns that are used.
#include <algorithm>

#include "engine/plan/expression_utils.h"
#include "engine/plan/logical_walk.h"
#include "engine/plan/optimizer.h"
#include "storage/stack_depth.h"

namespace floe::plan {

namespace {

// `required`: ids used by the operators above `op` (ids are unique per plan, so one set
// serves the whole path).
void prune(LogicalOp& op, std::set<ColumnId> required) {
  check_stack_depth();
  if (op.kind == LogicalKind::kMap) {
    auto& computed = static_cast<MapOp&>(op).computed;
    computed.erase(std::remove_if(computed.begin(), computed.end(),
                                  [&](const MapOp::Computed& c) { return !required.count(c.id); }),
                   computed.end());
  }
  for_each_expression(op, [&](ExprPtr& expr) { collect_columns(*expr, required); });
  if (op.kind == LogicalKind::kScan) {
    auto& columns = static_cast<ScanOp&>(op).columns;
    std::vector<ScanOp::Column> kept;
    for (const ScanOp::Column& column : columns)
      if (required.count(column.id)) kept.push_back(column);
    // count(*) needs the row count only; keep one column so the scan still produces rows.
    if (kept.empty() && !columns.empty()) kept.push_back(columns[0]);
    columns = std::move(kept);
  }
  for (LogicalOpPtr& child : op.children) prune(*child, required);
}

}  // namespace

void prune_columns(LogicalPlan& plan) {
  std::set<ColumnId> required;
  for (const auto& output : plan.outputs) required.insert(output.id);
  prune(*plan.root, std::move(required));
}

}  // namespace floe::plan
