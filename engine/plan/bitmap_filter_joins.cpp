#include "engine/plan/bitmap_filter_joins.h"

namespace floe::plan {
namespace {

bool concise(const LogicalOp& op, const PhysicalDescription& physical) {
  return op.kind == LogicalKind::kJoin &&
         physical.materialization(op).join_table != JoinTableKind::kChaining;
}

bool drops_unmatched_probe_rows(JoinType type) {
  return type == JoinType::kInner || type == JoinType::kSemi || type == JoinType::kRightOuter ||
         type == JoinType::kRightSemi || type == JoinType::kRightAnti;
}

bool plain_column_keys(const JoinOp& join) {
  for (const auto& key : join.keys)
    if (key.probe->kind != ExprKind::kColumn) return false;
  return !join.keys.empty();
}

}  // namespace

size_t first_concise_join(const Pipeline& pipeline, size_t own,
                          const PhysicalDescription& physical) {
  for (size_t k = 0; k < own; ++k)
    if (concise(*pipeline.operators[k], physical)) return k;
  return own;
}

std::vector<const JoinOp*> bitmap_filter_joins(const Pipeline& pipeline, size_t position,
                                               const PhysicalDescription& physical) {
  std::vector<const JoinOp*> joins;
  for (size_t k = position; k < pipeline.operators.size(); ++k) {
    const LogicalOp& op = *pipeline.operators[k];
    // Rows dropped before these would change what they let through.
    if (op.kind == LogicalKind::kLimit || op.kind == LogicalKind::kUnionAll ||
        op.kind == LogicalKind::kRepeat || op.kind == LogicalKind::kTableFunction)
      break;
    if (!concise(op, physical)) continue;
    const auto& join = static_cast<const JoinOp&>(op);
    if (drops_unmatched_probe_rows(join.type) && plain_column_keys(join)) joins.push_back(&join);
  }
  if (joins.size() < 2) joins.clear();
  return joins;
}

}  // namespace floe::plan
