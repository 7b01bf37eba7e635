// Logical optimization: constant folding, DISTINCT-aggregate rewrite, predicate pushdown into
// scans and hash-join keys with cost-based join ordering, build sides of semi/anti/outer
// joins, SARGable scan restrictions, index scans, column pruning. Subqueries are unnested
// before (subquery_unnesting.h).
#pragma once

#include "engine/plan/logical_plan.h"

namespace floe::plan {

// Scalar subqueries must already be replaced by constants. `index_joins`: whether hash joins
// may become index nested-loop joins (`SET enable_index_join`).
void optimize(LogicalPlan& plan, bool index_joins = true);

// The individual passes, in the order optimize() runs them.
void fold_constants(LogicalPlan& plan);
void rewrite_distinct_aggregates(LogicalPlan& plan);
void push_down_predicates(LogicalPlan& plan);
void choose_join_sides(LogicalPlan& plan);
void extract_scan_restrictions(LogicalPlan& plan);
// After extract_scan_restrictions: index scans for selective restrictions (index_selection.cpp).
void choose_index_scans(LogicalPlan& plan);
// After choose_index_scans: index nested-loop joins (index_join.cpp).
void choose_index_joins(LogicalPlan& plan);
// The probe-side scan of an index nested-loop join, or null for a hash join.
const ScanOp* index_join_scan(const JoinOp& join);
void prune_columns(LogicalPlan& plan);

}  // namespace floe::plan
