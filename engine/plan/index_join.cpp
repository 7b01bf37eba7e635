// Index nested-loop joins: a hash join whose probe side is a scan of a large base table with
// an index on the join key reads, instead of the whole table, only the rows the index finds
// for the keys of the (small) build side. Once the build pipeline has filled the join table,
// each distinct build key is looked up in the index (runtime/index_lookup.h,
// index_join_row_ids), and the scan reads those rows as an index scan does
// (runtime/table_scanner.h: sorted row ids, MVCC visibility, the scan's restrictions and
// filters); the join's probe then pairs them with the build rows, keys and residual checked
// on the row versions the snapshot sees. Both engines run it unchanged: the lookup fills the
// scan's row ids between the two pipelines (engine/exec/query_state.cpp).
//
// Which joins: the probe side (children[0], the larger side after choose_join_sides) is a
// sequential scan, each column of an index is the probe key of one of the join's key pairs
// (further keys are checked by the probe), and the join drops probe rows without a match:
// inner, semi, and the swapped right outer / right semi / right anti joins (a left outer or
// anti join needs every probe row).
//
// When is it worth it? Like an index scan (index_selection.cpp), a lookup costs a tree
// descent, key loads and a random access into a chunk per row found, on the order of 100 ns,
// while the sequential scan and the hash probe of a row cost a few ns (SIMD restrictions, one
// hash-table probe): about kLookupCost / kScanCost = 20 times less. So the index join is
// chosen while the build side's estimated rows, each expected to find a row, times 20 stay
// below the probe table's rows.
#include <algorithm>

#include "engine/plan/optimizer.h"
#include "storage/stack_depth.h"

namespace floe::plan {

namespace {

constexpr double kLookupCost = 100;  // ns per outer key: descent, key loads, random access
constexpr double kScanCost = 5;      // ns per inner row: scan and hash-table probe

bool drops_unmatched_probe_rows(JoinType type) {
  switch (type) {
    case JoinType::kInner:
    case JoinType::kSemi:
    case JoinType::kRightOuter:
    case JoinType::kRightSemi:
    case JoinType::kRightAnti:
      return true;
    default:
      return false;
  }
}

// For each column of `index`, the join key whose probe side is a plain reference to it; none
// when a column has no such key.
std::optional<std::vector<size_t>> covering_keys(const JoinOp& join, const ScanOp& scan,
                                                 const UniqueIndex& index) {
  std::vector<size_t> keys;
  for (size_t table_column : index.constraint().columns) {
    std::optional<size_t> found;
    for (size_t k = 0; k < join.keys.size() && !found; ++k) {
      const Expr& probe = *join.keys[k].probe;
      if (probe.kind != ExprKind::kColumn) continue;
      for (const auto& column : scan.columns)
        if (column.id == probe.column && column.table_column == table_column) found = k;
    }
    if (!found) return std::nullopt;
    keys.push_back(*found);
  }
  return keys;
}

void choose(LogicalOp& op) {
  check_stack_depth();
  for (LogicalOpPtr& child : op.children) choose(*child);
  if (op.kind != LogicalKind::kJoin) return;
  auto& join = static_cast<JoinOp&>(op);
  if (!drops_unmatched_probe_rows(join.type) || join.keys.empty() ||
      join.children[0]->kind != LogicalKind::kScan)
    return;
  auto& scan = static_cast<ScanOp&>(*join.children[0]);
  if (scan.index || scan.index_join) return;
  const double inner_rows = static_cast<double>(scan.table->live_row_count());
  const double outer_rows = std::max(join.children[1]->estimated_rows, 1.0);
  if (outer_rows * kLookupCost >= inner_rows * kScanCost) return;
  // The first index (the primary key first) whose every column is a join key.
  for (const auto& index : scan.table->unique_indexes()) {
    if (auto keys = covering_keys(join, scan, *index)) {
      scan.index_join = ScanOp::IndexJoin{index.get(), std::move(*keys)};
      return;
    }
  }
}

}  // namespace

void choose_index_joins(LogicalPlan& plan) {
  if (plan.root) choose(*plan.root);
}

const ScanOp* index_join_scan(const JoinOp& join) {
  if (join.children[0]->kind != LogicalKind::kScan) return nullptr;
  const auto& scan = static_cast<const ScanOp&>(*join.children[0]);
  return scan.index_join ? &scan : nullptr;
}

}  // namespace floe::plan
