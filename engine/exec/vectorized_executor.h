// The vectorized executor (DESIGN.md "Vectorized execution"; X100 thesis ch. 4-5): runs a
// physical plan's pipelines with the interpreted operators of engine/vector/ over
// DataChunks of `vector_size` rows, morsel-parallel exactly like the compiled executor
// (query_executor.h): the same physical description, state array, morsels, cancellation
// checks, worker contexts and result rows.
#pragma once

#include <memory>
#include <unordered_map>
#include <vector>

#include "engine/exec/morsel_dispatch.h"
#include "engine/exec/query_executor.h"

namespace floe {

namespace vectorized {
class VectorPipeline;
class PipelineCompaction;
}  // namespace vectorized

// One pipeline (physical pipeline `index`) in the vectorized engine, its morsels dispatched by
// the caller: this executor's run_pipeline, or adaptive execution's (adaptive_executor.h).
class VectorizedPipelineRun {
 public:
  using RowCounts = std::unordered_map<const plan::LogicalOp*, uint64_t>;
  using ChunkCounts = std::unordered_map<const plan::LogicalOp*, vectorized::ChunkCounts>;

  // Builds every worker's operators, on this thread (a worker's morsels then only run them).
  // Throws floe::NotSupported for an operator the engine does not run yet. `row_counts` and
  // `chunk_counts` (EXPLAIN ANALYZE): one map per worker, or null.
  VectorizedPipelineRun(const plan::PhysicalPlan& plan, const plan::PhysicalDescription& physical,
                        size_t index, QueryState& state, QueryContext& query, uint32_t vector_size,
                        std::vector<RowCounts>* row_counts,
                        std::vector<ChunkCounts>* chunk_counts);
  ~VectorizedPipelineRun();

  // Before the first morsel: the sink's initial rows (an aggregation's groups).
  void start();
  // One morsel on `worker`; a runtime error fails the query (the first failure wins).
  void run_morsel(const Morsel& morsel, uint32_t worker);
  // After the last morsel: throws when the query failed, else finalizes the sink.
  void finish();

  // EXPLAIN ANALYZE: adds the workers' counts (as passed to the constructor) to `profile`.
  static void add_counts(const std::vector<RowCounts>& row_counts,
                         const std::vector<ChunkCounts>& chunk_counts, QueryProfile& profile);
  // EXPLAIN ANALYZE: adds the thresholds the compaction learners selected to `profile`.
  void add_learned_thresholds(QueryProfile& profile) const;

 private:
  const plan::PhysicalPlan& plan_;
  const plan::PhysicalDescription& physical_;
  const plan::PipelineDescription& pipeline_;
  QueryState& state_;
  QueryContext& query_;
  // The compactors' shared strategies and learners, which the workers' operators point to.
  std::unique_ptr<vectorized::PipelineCompaction> compaction_;
  std::vector<std::unique_ptr<vectorized::VectorPipeline>> workers_;
};

// Throws floe::NotSupported before running anything when a pipeline has an operator the
// vectorized engine does not run yet, floe::Error on a runtime error.
QueryOutput execute_vectorized(const plan::PhysicalPlan& plan, const ExecutionOptions& options,
                               QueryProfile* profile = nullptr);

}  // namespace floe
