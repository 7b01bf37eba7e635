// Runs a statement's WITH RECURSIVE queries (plan::RecursiveQuery) before its plan, as
// PostgreSQL's recursive union does: the non-recursive term's rows fill the working table,
// then the recursive term runs over the working table again and again, each time replacing
// it with the rows it produced (for UNION only rows not seen before), until it produces
// none. Every row goes to the result table, which the plan scans. The recursive term is
// compiled once and run per iteration. The statement's cancel
// flag is checked between iterations (besides within them), so that a recursion that never
// ends can be canceled.
#pragma once

#include "engine/api/database.h"
#include "engine/plan/logical_plan.h"

namespace floe {

// Adds the terms' planning and execution times to timings.plan_ms.
void run_recursive_queries(const plan::LogicalPlan& logical, const ExecutionOptions& options,
                           PhaseTimings& timings);

}  // namespace floe
