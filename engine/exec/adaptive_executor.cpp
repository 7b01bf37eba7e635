#include "engine/exec/adaptive_executor.h"

#include <tbb/task_arena.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <mutex>
#include <optional>
#include <vector>

#include "engine/exec/background_compile.h"
#include "engine/exec/pipeline_support.h"
#include "engine/exec/vectorized_executor.h"
#include "runtime/query_context.h"
#include "storage/error.h"

namespace floe {
namespace {

using plan::PipelineDescription;
using RowCounts = VectorizedPipelineRun::RowCounts;
using ChunkCounts = VectorizedPipelineRun::ChunkCounts;

// A pipeline's code is requested once the vectorized run of its remaining morsels, extrapolated
// from those started so far, would take longer than this: ICDE 2018 (section IV-C) compiles a
// pipeline only when its remaining work outweighs the compile time, so that short pipelines
// and queries never spend a core on LLVM (a pipeline's module takes some 5-30 ms).
constexpr double kWorthCompilingMs = 20;

// Whether a running pipeline's remaining work is worth compiling, asked before each morsel by
// the worker that starts it.
class CompileDecision {
 public:
  explicit CompileDecision(size_t morsels) : morsels_(morsels) {}

  bool worth_compiling() {
    if (decided_.load(std::memory_order_relaxed)) return false;
    uint64_t started = started_.fetch_add(1, std::memory_order_relaxed) + 1;
    double per_morsel_ms =
        std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start_)
            .count() /
        static_cast<double>(started);
    if (per_morsel_ms * static_cast<double>(morsels_ - std::min(started, morsels_)) <
        kWorthCompilingMs)
      return false;
    return !decided_.exchange(true);
  }

 private:
  const uint64_t morsels_;
  const std::chrono::steady_clock::time_point start_ = std::chrono::steady_clock::now();
  std::atomic<uint64_t> started_{0};
  std::atomic<bool> decided_{false};
};

class AdaptiveRun {
 public:
  AdaptiveRun(const plan::PhysicalPlan& plan, const plan::PhysicalDescription& physical,
              BackgroundCompile& code, const ExecutionOptions& options, QueryState& state,
              QueryContext& query, QueryProfile* profile)
      : plan_(plan),
        physical_(physical),
        code_(code),
        options_(options),
        state_(state),
        query_(query),
        profile_(profile),
        row_counts_(profile ? query.worker_count() : 0),
        chunk_counts_(profile ? query.worker_count() : 0) {}

  void run_pipeline(size_t index) {
    const PipelineDescription& pipeline = physical_.pipelines[index];
    std::atomic<uint64_t> vectorized_morsels{0};
    std::atomic<uint64_t> compiled_morsels{0};
    code_.running(index);
    const CompiledQuery* compiled = code_at_pipeline_start(index);
    std::optional<VectorizedPipelineRun> vectorized;
    if (!compiled) {
      try {
        vectorized.emplace(plan_, physical_, index, state_, query_, options_.scan.vector_size,
                           profile_ ? &row_counts_ : nullptr,
                           profile_ ? &chunk_counts_ : nullptr);
      } catch (const NotSupported&) {
        compiled = &compiled_code(code_.wait(index));  // (rethrows when the code failed too)
      }
    }
    if (compiled)
      compiled->start_pipeline(index, state_, query_);
    else
      vectorized->start();
    std::vector<Morsel> morsels = morsels_of(pipeline, state_);
    CompileDecision decision(morsels.size());
    dispatch_morsels(
        morsels, pipeline.ordered, [&] { return pipeline_stopped(pipeline, state_, query_); },
        [&](const Morsel& morsel, uint32_t worker) {
          const CompiledQuery* code = compiled ? compiled : code_for_morsel(index);
          if (!code && decision.worth_compiling()) code_.request(index);
          if (code) {
            compiled_morsels.fetch_add(1, std::memory_order_relaxed);
            code->run_morsel(index, morsel, worker, state_, query_);
          } else {
            vectorized_morsels.fetch_add(1, std::memory_order_relaxed);
            vectorized->run_morsel(morsel, worker);
          }
        });
    if (!compiled) compiled = code_at_pipeline_start(index);
    if (compiled)
      compiled->finish_pipeline(index, state_, query_);
    else
      vectorized->finish();
    if (profile_ && vectorized) vectorized->add_learned_thresholds(*profile_);
    if (profile_) {
      auto& morsels = profile_->pipeline_morsels[pipeline.id];
      morsels.vectorized += vectorized_morsels.load();
      morsels.compiled += compiled_morsels.load();
    }
  }

  // EXPLAIN ANALYZE: the rows (and the vectorized chunks) each engine's operators counted.
  void add_row_counts(QueryProfile& profile) const {
    VectorizedPipelineRun::add_counts(row_counts_, chunk_counts_, profile);
    if (compiled_counts_) compiled_counts_->sum_into(counted_operators_, profile);
  }

 private:
  // Whether a pipeline starts, or finishes, on the code: once its code is ready (with the
  // test hook, once the hook's morsels have started).
  const CompiledQuery* code_at_pipeline_start(size_t index) {
    if (options_.adaptive_compiled_pipelines) return hooked_code(index);
    if (!options_.adaptive_switch_morsel) return ready_code(index);
    if (morsels_started_.load() < options_.adaptive_switch_morsel) return nullptr;
    return &compiled_code(code_.wait(index));
  }

  const CompiledQuery* code_for_morsel(size_t index) {
    if (options_.adaptive_compiled_pipelines) return hooked_code(index);
    if (!options_.adaptive_switch_morsel) return ready_code(index);
    if (morsels_started_.fetch_add(1) < options_.adaptive_switch_morsel) return nullptr;
    return &compiled_code(code_.wait(index));
  }

  // The test hook that runs the first pipelines compiled and the others vectorized.
  const CompiledQuery* hooked_code(size_t index) {
    if (index >= options_.adaptive_compiled_pipelines) return nullptr;
    return &compiled_code(code_.wait(index));
  }

  const CompiledQuery* ready_code(size_t index) {
    const CompiledQuery* code = code_.ready(index);
    return code ? &compiled_code(*code) : nullptr;
  }

  // Before the first morsel of compiled code runs: with a profile, the generated row
  // counters (the vectorized operators count into row_counts_).
  const CompiledQuery& compiled_code(const CompiledQuery& code) {
    if (profile_) {
      std::call_once(counters_once_, [&] {
        counted_operators_ = code.counted_operators();
        compiled_counts_.emplace(query_, counted_operators_.size());
      });
    }
    return code;
  }

  const plan::PhysicalPlan& plan_;
  const plan::PhysicalDescription& physical_;
  BackgroundCompile& code_;
  const ExecutionOptions& options_;
  QueryState& state_;
  QueryContext& query_;
  QueryProfile* profile_;
  std::vector<RowCounts> row_counts_;      // per worker
  std::vector<ChunkCounts> chunk_counts_;  // per worker
  std::once_flag counters_once_;
  std::vector<const plan::LogicalOp*> counted_operators_;
  std::optional<WorkerRowCounts> compiled_counts_;
  std::atomic<uint64_t> morsels_started_{0};  // (the test hook's count)
};

}  // namespace

QueryOutput execute_adaptive(const plan::PhysicalPlan& plan, const ExecutionOptions& options,
                             QueryProfile* profile) {
  auto physical = describe(plan, options);
  QueryOutput output;
  Stopwatch clock;
  auto code = BackgroundCompile::start(plan, physical, options, profile != nullptr);
  // However the query ends, it no longer waits for the code (and the plan may go).
  struct ReleasePlan {
    BackgroundCompile& code;
    ~ReleasePlan() { code.release_plan(); }
  } release{*code};
  // Worker ids are thread indexes in this arena: [0, workers).
  uint32_t workers = worker_count(options);
  ThreadPoolCapacity pool(workers);
  tbb::task_arena arena(static_cast<int>(workers));
  QueryContext query(workers, options.cancel);
  QueryState state(physical->slots, query.worker_count(), options.scan);
  AdaptiveRun run(plan, *physical, *code, options, state, query, profile);
  arena.execute([&] {
    for (size_t p = 0; p < physical->pipelines.size(); ++p) {
      Stopwatch pipeline_clock;
      run.run_pipeline(p);
      if (profile) profile->pipeline_ms[physical->pipelines[p].id] += pipeline_clock.lap_ms();
    }
  });
  if (profile) {
    run.add_row_counts(*profile);
    add_scan_statistics(physical->slots, state, workers, *profile);
    add_join_tables(*physical, state, *profile);
    profile->background_compile_ms = code->compile_ms();
    profile->optimized = code->compiled_optimized();
  }
  read_result(*physical, state, output);
  output.execute_ms = clock.lap_ms();
  output.workers = workers;
  return output;
}

}  // namespace floe
