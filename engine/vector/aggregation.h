// The vectorized hash aggregation (X100 thesis §5.3; codegen/aggregation_translator.cpp does
// the same tuple at a time): the sink finds or inserts each chunk row's group in the worker's
// AggregationHashTable (the compiled engine's table and group rows, plan::AggregateLayout),
// then updates the aggregate states with the kernels of runtime/vector/aggregate_kernels.h;
// after the pipeline, the workers' tables are merged with callbacks over the same rows; the
// source reads the merged groups back, finalized, morsel by morsel.
#pragma once

#include <memory>

#include "engine/vector/chunk_operator.h"

namespace floe::vectorized {

// Sink of the pipeline below `aggregate`, over chunks of the `input` columns.
std::unique_ptr<ChunkConsumer> make_aggregation_sink(const PipelineContext& context,
                                                     const plan::AggregateOp& aggregate,
                                                     const ChunkColumns& input);

// Source of the pipeline above `aggregate`: its merged groups [begin, end), each chunk the
// group keys and then the finalized aggregates.
std::unique_ptr<ChunkSource> make_aggregation_source(const PipelineContext& context,
                                                     const plan::AggregateOp& aggregate);

// Before the sink's pipeline runs (as the compiled executor does): without GROUP BY the one
// group that exists even for empty input, and AggregateOp::initial_groups (the empty grouping
// set), in `worker`'s table.
void start_aggregation(const plan::PhysicalDescription& physical,
                       const plan::PipelineDescription& pipeline, void** state,
                       WorkerContext& worker);

// After it: merges the workers' tables (AggregationHashTable::merge) with the vectorized
// engine's key equality and state merge. Throws floe::Error when a merged sum overflows.
void merge_aggregation(const plan::PhysicalDescription& physical,
                       const plan::PipelineDescription& pipeline, void** state,
                       QueryContext& query);

}  // namespace floe::vectorized
