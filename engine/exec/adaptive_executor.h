// Adaptive execution (`SET execution_mode = 'adaptive'`; Kohn, Leis & Neumann, "Adaptive
// Execution of Compiled Queries", ICDE 2018; DESIGN.md "Vectorized execution"): the query
// starts at once on the vectorized engine while its code is generated and compiled on the
// compile thread (background_compile.h), one module per pipeline, for each pipeline whose
// remaining work is worth compiling; from the moment a pipeline's code is ready, every morsel
// of it that starts runs the compiled code, also in the middle of the pipeline. A pipeline
// may so run compiled after a vectorized one, or vectorized after a compiled one.
//
// The unit of switching is the morsel: both engines run a pipeline over the same state array
// (physical_description.h), whose per-worker parts (scanners, the aggregation table's worker
// partitions, row buffers, join build rows) have the same row layouts in either, and neither
// engine keeps rows of a worker between morsels. A pipeline's sink is started by the engine
// that runs its first morsel and finalized by the code when it is ready by then.
#pragma once

#include "engine/exec/query_executor.h"

namespace floe {

// Throws floe::Error on a runtime error, with the same message either engine gives.
QueryOutput execute_adaptive(const plan::PhysicalPlan& plan, const ExecutionOptions& options,
                             QueryProfile* profile = nullptr);

}  // namespace floe
