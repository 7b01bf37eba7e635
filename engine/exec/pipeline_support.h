// What the compiled and the vectorized executor share around the pipelines they run: the
// physical planning step, each pipeline's morsels, its LIMIT checks, reading the result
// rows, the generated code's row counters, and a stopwatch.
#pragma once

#include <chrono>
#include <memory>
#include <vector>

#include "engine/exec/morsel_dispatch.h"
#include "engine/exec/query_executor.h"
#include "engine/exec/query_state.h"
#include "engine/plan/physical_description.h"
#include "runtime/query_context.h"

namespace floe {

class Stopwatch {
 public:
  double lap_ms() {
    auto now = std::chrono::steady_clock::now();
    double ms = std::chrono::duration<double, std::milli>(now - start_).count();
    start_ = now;
    return ms;
  }

 private:
  std::chrono::steady_clock::time_point start_ = std::chrono::steady_clock::now();
};

// EXPLAIN ANALYZE: each worker's row counters, one per counted operator. The padding keeps
// the counters of different workers off each other's cache lines.
class WorkerRowCounts {
 public:
  WorkerRowCounts(QueryContext& query, size_t operators) : counts_(query.worker_count()) {
    for (uint32_t w = 0; w < query.worker_count(); ++w) {
      counts_[w].assign(operators + kPadding, 0);
      query.worker(w).row_counts = counts_[w].data();
    }
  }

  void sum_into(const std::vector<const plan::LogicalOp*>& operators, QueryProfile& profile) const {
    for (size_t i = 0; i < operators.size(); ++i) {
      uint64_t& rows = profile.operator_rows[operators[i]];
      for (const auto& worker : counts_) rows += worker[i];
    }
  }

 private:
  static constexpr size_t kPadding = 64 / sizeof(uint64_t);
  std::vector<std::vector<uint64_t>> counts_;
};

// The physical planning step, with the restrictions pushed into the scans unless the
// options ask for the JIT scan or no SARG pushdown.
std::shared_ptr<const plan::PhysicalDescription> describe(const plan::PhysicalPlan& plan,
                                                          const ExecutionOptions& options);

// The morsels of the pipeline's source.
std::vector<Morsel> morsels_of(const plan::PipelineDescription& pipeline, QueryState& state);

// A pipeline whose LIMIT has let through all it will is done: nothing more reaches its sink.
bool limit_reached(const plan::PipelineDescription& pipeline, const QueryState& state);

// Whether no further morsel of the pipeline starts, checked before each: the query failed or
// was canceled, or its LIMIT let through all it will.
bool pipeline_stopped(const plan::PipelineDescription& pipeline, const QueryState& state,
                      QueryContext& query);

// Whether the pipeline that reads the rows of `slot` reads them in order
// (plan::Pipeline::ordered): a window then keeps its rows in partition order.
bool reader_needs_order(const plan::PhysicalDescription& physical, uint32_t slot);

// The rows of the (finished) result buffer as Values, with the result's column names and
// types, into `output`.
void read_result(const plan::PhysicalDescription& physical, QueryState& state, QueryOutput& output);

// EXPLAIN ANALYZE: what the scanners of each scan did, into `profile`.
void add_scan_statistics(const std::vector<plan::StateSlot>& slots, const QueryState& state,
                         uint32_t workers, QueryProfile& profile);

// EXPLAIN ANALYZE: the table each CHT/CAT hash join built, into `profile`.
void add_join_tables(const plan::PhysicalDescription& physical, QueryState& state,
                     QueryProfile& profile);

}  // namespace floe
