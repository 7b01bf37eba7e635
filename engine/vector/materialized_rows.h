// The vectorized engine's pipeline breakers over materialized rows (DESIGN.md "Vectorized
// execution"): the sort and window sinks append each chunk's rows to the operator's
// RowBuffer in the rows the plan layer laid out (plan::Materialization), the very rows the
// compiled engine writes; once the pipeline is done, the rows are sorted, or their windows
// evaluated, by the runtime with C++ comparators (runtime/vector/row_order.h) and aggregate
// kernels instead of generated functions; the rows source reads them back into chunks.
#pragma once

#include <memory>

#include "engine/vector/chunk_operator.h"
#include "engine/vector/row_field_offsets.h"
#include "runtime/row_buffer.h"
#include "runtime/vector/row_scatter.h"

namespace floe::vectorized {

// ORDER BY (codegen/sort_translator.cpp): the needed columns, then the computed sort keys.
std::unique_ptr<ChunkConsumer> make_sort_sink(const PipelineContext& context,
                                              const plan::SortOp& sort, const ChunkColumns& input);
// After the sort's pipeline: sorts the (finished) rows stably in the sort's order and keeps
// those within its LIMIT / OFFSET.
void sort_rows(const plan::PhysicalDescription& physical, const plan::PipelineDescription& pipeline,
               RowBuffer& rows, QueryContext& query);

// Window functions (codegen/window_translator.cpp): the row of window_layout.h, with the
// hash of the partition keys that generated code computes.
std::unique_ptr<ChunkConsumer> make_window_sink(const PipelineContext& context,
                                                const plan::WindowOp& window,
                                                const ChunkColumns& input);
// After the window's pipeline: evaluates every function into the (finished) rows
// (runtime/window_evaluator.h), keeping them in partition order if `keep_order`.
void evaluate_window_rows(const plan::LogicalPlan& plan, const plan::PhysicalDescription& physical,
                          const plan::PipelineDescription& pipeline, RowBuffer& rows,
                          QueryContext& query, bool keep_order);

// Source::kRows (codegen's materialized source): rows [begin, end) of a sort's or a window's
// buffer, in their order, as chunks of the Materialization's columns.
std::unique_ptr<ChunkSource> make_rows_source(const PipelineContext& context,
                                              const plan::LogicalOp& op);

}  // namespace floe::vectorized
