#include "engine/plan/optimizer.h"

namespace floe::plan {

void optimize(LogicalPlan& plan) {
  fold_constants(plan);
  rewrite_distinct_aggregates(plan);
  push_down_predicates(plan);
  choose_join_sides(plan);
  extract_scan_restrictions(plan);
  choose_index_scans(plan);
  prune_columns(plan);
}

}  // namespace floe::plan
