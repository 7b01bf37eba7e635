// From a bound logical plan to results: subqueries are unnested into joins, uncorrelated
// scalar subqueries are executed and replaced by constants, then the plan is optimized, cut
// into pipelines and run by the compiled or the vectorized executor.
#pragma once

#include <chrono>

#include "engine/api/database.h"
#include "engine/plan/physical_plan.h"

namespace floe {

// Runs the WITH RECURSIVE queries, unnests and substitutes subqueries, optimizes, and builds
// the pipelines. Adds to timings.plan_ms (subquery execution included).
plan::PhysicalPlan prepare_plan(plan::LogicalPlan logical, const ExecutionOptions& options,
                                PhaseTimings& timings);

// prepare_plan + execute_plan (the connection's execution mode); fills codegen/compile/execute
// times.
QueryOutput run_plan(plan::LogicalPlan logical, const ExecutionOptions& options,
                     PhaseTimings& timings);

// Milliseconds since `start` (steady clock).
double elapsed_ms(std::chrono::steady_clock::time_point start);

}  // namespace floe
