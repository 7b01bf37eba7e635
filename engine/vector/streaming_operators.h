// The vectorized streaming operators (chunk_operator.h), one per streaming plan operator of
// a pipeline, and the query result sink. Each is built over the columns of its input chunks.
#pragma once

#include <memory>

#include "engine/vector/chunk_operator.h"

namespace floe::vectorized {

// Filter (codegen/filter_translator.cpp): narrows the chunk's selection to the rows whose
// predicate is TRUE (ExpressionExecutor::select, branch-free); nothing is copied.
std::unique_ptr<ChunkOperator> make_filter(const PipelineContext& context,
                                           const plan::FilterOp& filter, const ChunkColumns& input);
// Map (codegen/map_translator.cpp): adds a column per computed expression.
std::unique_ptr<ChunkOperator> make_map(const PipelineContext& context, const plan::MapOp& map,
                                        const ChunkColumns& input);
// Streaming LIMIT/OFFSET (codegen/limit_translator.cpp): the same shared kCounter slot,
// advanced by a whole chunk at once; the rows whose numbers fall in [offset, offset + limit)
// pass.
std::unique_ptr<ChunkOperator> make_limit(const PipelineContext& context,
                                          const plan::LimitOp& limit, const ChunkColumns& input);
// One child's input of a UNION ALL (codegen/union_all_translator.cpp): a chunk of the
// union's columns, computed from the child's (same rows, same positions).
std::unique_ptr<ChunkOperator> make_union_all_input(const PipelineContext& context,
                                                    const plan::UnionAllOp& union_all, size_t child,
                                                    const ChunkColumns& input);
// A set-returning function per input row (codegen/table_function_translator.cpp): new
// chunks of the input columns (gathered) plus the function's value and ordinality.
std::unique_ptr<ChunkOperator> make_table_function(const PipelineContext& context,
                                                   const plan::TableFunctionOp& call,
                                                   const ChunkColumns& input);
// EXPLAIN ANALYZE: adds the rows `op` passes on to the worker's count (the compiled
// engine's row counters, codegen/row_counter_translator.cpp), and the chunks to its chunk
// counts, as passed on by `op` and as received by `next` (the streaming operator above, or
// null).
std::unique_ptr<ChunkOperator> make_row_counter(const PipelineContext& context,
                                                const plan::LogicalOp& op,
                                                const plan::LogicalOp* next,
                                                const ChunkColumns& input);
// The query result (codegen/result_sink_translator.cpp): one row per chunk row in the result
// RowBuffer, laid out by PhysicalDescription::result_layout (row_scatter.h).
std::unique_ptr<ChunkConsumer> make_result_sink(const PipelineContext& context,
                                                const ChunkColumns& input);

}  // namespace floe::vectorized
