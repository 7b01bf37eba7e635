// What the runtime's window evaluator (runtime/window_evaluator.h) needs to know of a window,
// described once in the plan layer from its rows (window_layout.h): the partition hash, the
// integer sort keys, and per function its kind, frame and fields, and for an aggregate the
// size of its state (a group row of window_aggregate(), engine/plan/aggregate_layout.h).
// Each engine then adds its callbacks: the compiled engine generated comparators and
// update/merge/finalize functions (codegen/window_translator.cpp), the vectorized engine
// RowOrders and the aggregate kernels (engine/vector/window_sink.cpp).
#pragma once

#include <memory>

#include "engine/plan/physical_description.h"
#include "runtime/window_evaluator.h"

namespace floe::plan {

// The spec without callbacks.
WindowSpec window_spec(const WindowOp& window, const Materialization& rows,
                       const ColumnRegistry& registry);

// The one-aggregate AggregateOp whose group row holds a window aggregate's state.
std::unique_ptr<AggregateOp> window_aggregate(const WindowOp::Function& function);

}  // namespace floe::plan
