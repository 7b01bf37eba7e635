#include "engine/vector/vector_pipeline.h"

#include "engine/plan/bitmap_filter_joins.h"
#include "engine/vector/aggregation.h"
#include "engine/vector/chunk_sources.h"
#include "engine/vector/join_operators.h"
#include "engine/vector/materialized_rows.h"
#include "engine/vector/repeat_operator.h"
#include "engine/vector/streaming_operators.h"
#include "storage/error.h"

namespace floe::vectorized {
namespace {

using plan::LogicalKind;

std::unique_ptr<ChunkSource> make_source(const PipelineContext& context,
                                         const plan::LogicalOp& source) {
  switch (source.kind) {
    case LogicalKind::kScan:
      return make_scan_source(context, static_cast<const plan::ScanOp&>(source));
    case LogicalKind::kValues:
      return make_values_source(context, static_cast<const plan::ValuesOp&>(source));
    case LogicalKind::kSeries:
      return make_series_source(context, static_cast<const plan::SeriesOp&>(source));
    case LogicalKind::kJoin:
      return make_join_unmatched_source(context, static_cast<const plan::JoinOp&>(source));
    case LogicalKind::kSort:
    case LogicalKind::kWindow:
      return make_rows_source(context, source);
    case LogicalKind::kAggregate:
      return make_aggregation_source(context, static_cast<const plan::AggregateOp&>(source));
    default:
      throw Error("internal error: no vectorized pipeline source for this operator");
  }
}

std::unique_ptr<ChunkOperator> make_operator(const PipelineContext& context,
                                             const plan::Pipeline& pipeline, size_t position,
                                             const ChunkColumns& input) {
  const plan::LogicalOp& op = *pipeline.operators[position];
  switch (op.kind) {
    case LogicalKind::kFilter:
      return make_filter(context, static_cast<const plan::FilterOp&>(op), input);
    case LogicalKind::kMap:
      return make_map(context, static_cast<const plan::MapOp&>(op), input);
    case LogicalKind::kLimit:
      return make_limit(context, static_cast<const plan::LimitOp&>(op), input);
    case LogicalKind::kUnionAll:
      return make_union_all_input(context, static_cast<const plan::UnionAllOp&>(op),
                                  plan::union_child(pipeline, position), input);
    case LogicalKind::kTableFunction:
      return make_table_function(context, static_cast<const plan::TableFunctionOp&>(op), input);
    case LogicalKind::kJoin:
      return make_join_probe(context, static_cast<const plan::JoinOp&>(op), input);
    case LogicalKind::kRepeat:
      return make_repeat(context, static_cast<const plan::RepeatOp&>(op), input);
    default:
      throw Error("internal error: no vectorized streaming operator for this operator");
  }
}

// The pipeline's sink; null: the query result's.
std::unique_ptr<ChunkConsumer> make_sink(const PipelineContext& context,
                                         const plan::LogicalOp* sink, const ChunkColumns& input) {
  if (!sink) return make_result_sink(context, input);
  switch (sink->kind) {
    case LogicalKind::kJoin:
      return make_join_build(context, static_cast<const plan::JoinOp&>(*sink), input);
    case LogicalKind::kSort:
      return make_sort_sink(context, static_cast<const plan::SortOp&>(*sink), input);
    case LogicalKind::kWindow:
      return make_window_sink(context, static_cast<const plan::WindowOp&>(*sink), input);
    case LogicalKind::kAggregate:
      return make_aggregation_sink(context, static_cast<const plan::AggregateOp&>(*sink), input);
    default:
      throw Error("internal error: no vectorized pipeline sink for this operator");
  }
}

}  // namespace

bool VectorPipeline::run(uint64_t begin, uint64_t end) {
  if (!source_->produce(begin, end, *first_)) return false;
  // Bottom up: a compactor's rows may fill the buffer of one above.
  for (Compactor* compactor : compactors_)
    if (!compactor->flush()) return false;
  return true;
}

VectorPipeline::VectorPipeline(const plan::Pipeline& pipeline, const PipelineContext& context)
    : context_(context) {
  // Built bottom up, each part over the columns of the chunks below it; with row counts
  // (EXPLAIN ANALYZE), a counter follows the source and every operator.
  std::vector<ChunkConsumer*> chain;
  source_ = make_source(context_, *pipeline.source);
  const ChunkColumns* columns = &source_->columns();
  auto add = [&](std::unique_ptr<ChunkOperator> op) {
    columns = &op->columns();
    chain.push_back(op.get());
    operators_.push_back(std::move(op));
  };
  auto count = [&](const plan::LogicalOp& op, size_t next) {
    const plan::LogicalOp* above = next < pipeline.operators.size() ? pipeline.operators[next]
                                                                    : nullptr;
    if (context_.row_counts) add(make_row_counter(context_, op, above, *columns));
  };
  count(*pipeline.source, 0);
  const size_t filtered =
      plan::first_concise_join(pipeline, pipeline.operators.size(), context_.physical);
  for (size_t k = 0; k < pipeline.operators.size(); ++k) {
    if (k == filtered)
      if (auto filter = make_bitmap_filter(context_, pipeline, k, *columns)) add(std::move(filter));
    add(make_operator(context_, pipeline, k, *columns));
    // Chunk compaction after the chunk-reducing operators (compaction.h).
    if (auto compactor =
            make_compactor(context_, *pipeline.operators[k], *columns, pipeline.ordered)) {
      compactors_.push_back(compactor.get());
      add(std::move(compactor));
    }
    count(*pipeline.operators[k], k + 1);
  }
  sink_ = make_sink(context_, pipeline.sink, *columns);
  chain.push_back(sink_.get());
  for (size_t i = 0; i + 1 < chain.size(); ++i) operators_[i]->set_next(*chain[i + 1]);
  first_ = chain.front();
}

}  // namespace floe::vectorized
