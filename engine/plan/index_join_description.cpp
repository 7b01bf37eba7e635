#include "engine/plan/index_join.h"

#include "engine/plan/optimizer.h"
#include "storage/stack_depth.h"

namespace floe::plan {

void describe_index_joins(const LogicalOp& root, PhysicalDescription& out) {
  check_stack_depth();
  for (const LogicalOpPtr& child : root.children) describe_index_joins(*child, out);
  if (root.kind != LogicalKind::kJoin) return;
  const auto& join = static_cast<const JoinOp&>(root);
  const ScanOp* scan = index_join_scan(join);
  if (!scan) return;
  // The build rows start with the join keys: key k is field k.
  const Materialization& rows = out.materialization(join);
  StateSlot& slot = out.slots[out.operator_slots.at(scan)];
  IndexJoinLookup lookup;
  lookup.index = scan->index_join->index;
  for (size_t key : scan->index_join->join_keys) {
    lookup.fields.push_back(row_slot(rows.layout, key));
    lookup.types.push_back(rows.layout.field(key).type);
  }
  slot.index_join = std::move(lookup);
  slot.index_join_table = rows.slot;
}

}  // namespace floe::plan
