// The vectorized pipeline driver: per pipeline, every worker of the query's task arena gets
// its own chain of vectorized operators (engine/vector/vector_pipeline.h) over the query's
// state array, then the pipeline's morsels are dispatched as in the compiled executor
// (Leis et al., "Morsel-Driven Parallelism", SIGMOD 2014): the same stop condition (a failed
// or canceled statement, a reached LIMIT) is checked before every morsel.
#include "engine/exec/vectorized_executor.h"

#include <tbb/task_arena.h>

#include <memory>
#include <unordered_map>
#include <vector>

#include "engine/exec/pipeline_support.h"
#include "engine/vector/aggregation.h"
#include "engine/vector/compaction.h"
#include "engine/vector/materialized_rows.h"
#include "engine/vector/vector_pipeline.h"
#include "runtime/query_context.h"
#include "storage/error.h"

namespace floe {
namespace {

using plan::PipelineDescription;
using RowCounts = VectorizedPipelineRun::RowCounts;
using ChunkCounts = VectorizedPipelineRun::ChunkCounts;

// Once the pipeline's morsels are done: its sink's rows get ready for the pipelines that
// read them (the compiled executor's finalize_sink, with C++ callbacks).
void finalize_sink(const plan::PhysicalPlan& plan, const plan::PhysicalDescription& physical,
                   const PipelineDescription& pipeline, QueryState& state, QueryContext& query) {
  switch (pipeline.sink) {
    case PipelineDescription::Sink::kSort: {
      auto& rows = state.rows(pipeline.sink_slot);
      rows.finish();
      vectorized::sort_rows(physical, pipeline, rows, query);
      break;
    }
    case PipelineDescription::Sink::kWindow: {
      auto& rows = state.rows(pipeline.sink_slot);
      rows.finish();
      vectorized::evaluate_window_rows(plan.logical, physical, pipeline, rows, query,
                                       reader_needs_order(physical, pipeline.sink_slot));
      break;
    }
    case PipelineDescription::Sink::kJoinBuild:
      state.finalize_join_table(pipeline.sink_slot, query.cancel_flag());
      break;
    case PipelineDescription::Sink::kResult:
      state.rows(pipeline.sink_slot).finish();
      break;
    case PipelineDescription::Sink::kAggregation:
      vectorized::merge_aggregation(physical, pipeline, state.data(), query);
      break;
  }
}

}  // namespace

VectorizedPipelineRun::VectorizedPipelineRun(const plan::PhysicalPlan& plan,
                                             const plan::PhysicalDescription& physical,
                                             size_t index, QueryState& state, QueryContext& query,
                                             uint32_t vector_size,
                                             std::vector<RowCounts>* row_counts,
                                             std::vector<ChunkCounts>* chunk_counts)
    : plan_(plan),
      physical_(physical),
      pipeline_(physical.pipelines[index]),
      state_(state),
      query_(query),
      compaction_(std::make_unique<vectorized::PipelineCompaction>(plan, plan.pipelines[index],
                                                                   vector_size)) {
  for (uint32_t w = 0; w < query.worker_count(); ++w) {
    vectorized::PipelineContext context{plan.logical,
                                        physical,
                                        pipeline_,
                                        query.worker(w),
                                        state.data(),
                                        vector_size,
                                        row_counts ? &(*row_counts)[w] : nullptr,
                                        chunk_counts ? &(*chunk_counts)[w] : nullptr,
                                        compaction_.get()};
    workers_.push_back(std::make_unique<vectorized::VectorPipeline>(plan.pipelines[index], context));
  }
}

VectorizedPipelineRun::~VectorizedPipelineRun() = default;

void VectorizedPipelineRun::start() {
  if (pipeline_.sink == PipelineDescription::Sink::kAggregation)
    vectorized::start_aggregation(physical_, pipeline_, state_.data(), query_.worker(0));
}

void VectorizedPipelineRun::run_morsel(const Morsel& morsel, uint32_t worker) {
  try {
    workers_[worker]->run(morsel.begin, morsel.end);
  } catch (const Error& error) {
    query_.fail(error.what());  // the first failure wins, as in generated code
  }
}

void VectorizedPipelineRun::finish() {
  if (query_.failed()) throw Error(query_.error_message());
  if (!pipeline_.sink_continues) finalize_sink(plan_, physical_, pipeline_, state_, query_);
}

void VectorizedPipelineRun::add_counts(const std::vector<RowCounts>& row_counts,
                                       const std::vector<ChunkCounts>& chunk_counts,
                                       QueryProfile& profile) {
  for (const auto& counts : row_counts)
    for (auto [op, rows] : counts) profile.operator_rows[op] += rows;
  for (const auto& counts : chunk_counts) {
    for (const auto& [op, chunks] : counts) {
      auto& total = profile.operator_chunks[op];
      total.chunks_in += chunks.chunks_in;
      total.rows_in += chunks.rows_in;
      total.chunks_out += chunks.chunks_out;
      total.rows_out += chunks.rows_out;
    }
  }
}

void VectorizedPipelineRun::add_learned_thresholds(QueryProfile& profile) const {
  for (const auto& [op, learner] : compaction_->learners()) {
    const std::vector<uint64_t> selections = learner->selections();
    auto& thresholds = profile.learned_thresholds[op];
    for (size_t arm = 0; arm < selections.size(); ++arm)
      if (selections[arm] > 0) thresholds[learner->threshold(arm)] += selections[arm];
  }
}

QueryOutput execute_vectorized(const plan::PhysicalPlan& plan, const ExecutionOptions& options,
                               QueryProfile* profile) {
  auto physical = describe(plan, options);
  QueryOutput output;
  Stopwatch clock;
  // Worker ids are thread indexes in this arena: [0, workers).
  uint32_t workers = worker_count(options);
  ThreadPoolCapacity pool(workers);
  tbb::task_arena arena(static_cast<int>(workers));
  QueryContext query(workers, options.cancel);
  QueryState state(physical->slots, query.worker_count(), options.scan);
  std::vector<RowCounts> row_counts(profile ? workers : 0);
  std::vector<ChunkCounts> chunk_counts(profile ? workers : 0);
  arena.execute([&] {
    for (size_t p = 0; p < physical->pipelines.size(); ++p) {
      Stopwatch pipeline_clock;
      const PipelineDescription& pipeline = physical->pipelines[p];
      VectorizedPipelineRun run(plan, *physical, p, state, query, options.scan.vector_size,
                                profile ? &row_counts : nullptr,
                                profile ? &chunk_counts : nullptr);
      run.start();
      dispatch_morsels(
          morsels_of(pipeline, state), pipeline.ordered,
          [&] { return pipeline_stopped(pipeline, state, query); },
          [&](const Morsel& morsel, uint32_t worker) { run.run_morsel(morsel, worker); });
      run.finish();
      if (profile) run.add_learned_thresholds(*profile);
      if (profile) profile->pipeline_ms[physical->pipelines[p].id] += pipeline_clock.lap_ms();
    }
  });
  if (profile) {
    VectorizedPipelineRun::add_counts(row_counts, chunk_counts, *profile);
    add_scan_statistics(physical->slots, state, workers, *profile);
    add_join_tables(*physical, state, *profile);
  }
  read_result(*physical, state, output);
  output.execute_ms = clock.lap_ms();
  output.workers = workers;
  return output;
}

}  // namespace floe
