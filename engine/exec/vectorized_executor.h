// The vectorized executor (DESIGN.md "Vectorized execution"; X100 thesis ch. 4-5): runs a
// physical plan's pipelines with the interpreted operators of engine/vector/ over
// DataChunks of `vector_size` rows, morsel-parallel exactly like the compiled executor
// (query_executor.h): the same physical description, state array, morsels, cancellation
// checks, worker contexts and result rows.
#pragma once

#include "engine/exec/query_executor.h"

namespace floe {

// Throws floe::NotSupported before running anything when a pipeline has an operator the
// vectorized engine does not run yet, floe::Error on a runtime error.
QueryOutput execute_vectorized(const plan::PhysicalPlan& plan, const ExecutionOptions& options,
                               QueryProfile* profile = nullptr);

}  // namespace floe
