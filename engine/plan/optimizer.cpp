#include "engine/plan/optimizer.h"

namespace floe::plan {

void optimize(LogicalPlan& plan, bool index_joins) {
  fold_constants(plan);
  rewrite_distinct_aggregates(plan);
  push_down_predicates(plan);
  choose_join_sides(plan);
  extract_scan_restrictions(plan);
  choose_index_scans(plan);
  if (index_joins) choose_index_joins(plan);
  prune_columns(plan);
}

}  // namespace floe::plan
