// The compiled executor: generates the query's module, JIT-compiles it, then runs the
// pipelines in plan order, each over the morsels of its source on the workers of a oneTBB
// task arena, and finalizes each sink before the pipelines that read it start (DESIGN.md
// "Compiled execution"; Leis et al., "Morsel-Driven Parallelism", SIGMOD 2014).
#include "engine/exec/query_executor.h"

#include <llvm/Support/raw_ostream.h>
#include <tbb/task_arena.h>

#include <algorithm>
#include <chrono>
#include <optional>
#include <thread>

#include "codegen/jit.h"
#include "codegen/query_program.h"
#include "engine/exec/adaptive_executor.h"
#include "engine/exec/pipeline_support.h"
#include "engine/exec/query_run.h"
#include "engine/exec/query_state.h"
#include "engine/exec/vectorized_executor.h"
#include "engine/plan/parameter_restrictions.h"
#include "engine/plan/physical_description.h"
#include "runtime/parameter_slot.h"
#include "runtime/query_context.h"
#include "runtime/vector/vector.h"
#include "runtime/window_evaluator.h"
#include "storage/error.h"

namespace floe {
namespace {

using codegen::PipelineProgram;
using plan::PipelineDescription;
using InitialGroupsFn = bool (*)(void** state, WorkerContext* worker);

// kAuto compiles optimized code when the scanned tables hold more rows per worker than this:
// below, the extra 10-30 ms of optimization cost more than the faster code saves (measured on
// TPC-H, bench/RESULTS.md).
constexpr uint64_t kOptimizeAboveRowsPerWorker = 500'000;
// A pipeline compiled in the background (adaptive execution) runs vectorized until its code is
// ready, so the optimized tier's longer compilation delays the switch: at TPC-H SF 1 (at most
// 3 million rows per worker) the fast tier made adaptive execution 15 % faster
// (bench/RESULTS.md "Adaptive execution, compiled on demand"). ICDE 2018 (section IV-C) also
// starts with unoptimized code and optimizes only long pipelines.
constexpr uint64_t kOptimizeInBackgroundAboveRowsPerWorker = 5'000'000;

// The pipeline's window spec with the generated functions it names.
WindowSpec window_spec(const PipelineProgram& pipeline, const codegen::CompiledModule& code) {
  auto compare = [&](const std::string& name) {
    return RowComparator(reinterpret_cast<RowComparator::Fn>(code.lookup(name)));
  };
  WindowSpec spec = pipeline.window;
  spec.order = compare(pipeline.compare_function);
  spec.same_partition = compare(pipeline.window_same_partition);
  spec.peers = compare(pipeline.window_peers);
  for (size_t f = 0; f < spec.functions.size(); ++f) {
    const auto& bounds = pipeline.window_range_bounds[f];
    if (!bounds.start.empty()) spec.functions[f].range_start = compare(bounds.start);
    if (!bounds.end.empty()) spec.functions[f].range_end = compare(bounds.end);
    const auto& names = pipeline.window_aggregates[f];
    if (names.update.empty()) continue;
    auto& function = spec.functions[f];
    function.update = reinterpret_cast<StateUpdate::Fn>(code.lookup(names.update));
    function.merge = reinterpret_cast<StateMerge::Fn>(code.lookup(names.merge));
    function.finalize = reinterpret_cast<StateFinalize::Fn>(code.lookup(names.finalize));
  }
  return spec;
}

// The long steps poll the statement's cancel flag (runtime/cancellation.h).
void finalize_sink(const plan::PhysicalDescription& physical, const PipelineDescription& pipeline,
                   const PipelineProgram& functions, QueryState& state, QueryContext& query,
                   const codegen::CompiledModule& code) {
  switch (pipeline.sink) {
    case PipelineDescription::Sink::kJoinBuild:
      state.finalize_join_table(pipeline.sink_slot, query.cancel_flag());
      break;
    case PipelineDescription::Sink::kAggregation:
      if (!state.aggregation_table(pipeline.sink_slot)
               .merge(reinterpret_cast<RowEquality::Fn>(code.lookup(functions.keys_equal_function)),
                      reinterpret_cast<StateMerge::Fn>(code.lookup(functions.merge_function)),
                      query))
        throw Error(query.error_message());
      break;
    case PipelineDescription::Sink::kSort: {
      auto& rows = state.rows(pipeline.sink_slot);
      rows.finish();
      rows.sort(reinterpret_cast<RowComparator::Fn>(code.lookup(functions.compare_function)),
                query.cancel_flag());
      rows.apply_limit(pipeline.offset, pipeline.limit);
      break;
    }
    case PipelineDescription::Sink::kWindow: {
      auto& rows = state.rows(pipeline.sink_slot);
      rows.finish();
      if (!evaluate_windows(rows, window_spec(functions, code), query,
                            reader_needs_order(physical, pipeline.sink_slot)))
        throw Error(query.error_message());
      break;
    }
    case PipelineDescription::Sink::kResult:
      state.rows(pipeline.sink_slot).finish();
      break;
  }
}

// `rows`: those the code will read (per query, or per pipeline); with kAuto, optimized above
// `optimize_above` rows per worker.
codegen::JitOptimization choose_level(const ExecutionOptions& options, uint64_t rows,
                                      uint64_t optimize_above) {
  switch (options.optimization) {
    case OptimizationLevel::kFast:
      return codegen::JitOptimization::kFast;
    case OptimizationLevel::kOptimized:
      return codegen::JitOptimization::kOptimized;
    case OptimizationLevel::kAuto:
      break;
  }
  return rows / worker_count(options) > optimize_above ? codegen::JitOptimization::kOptimized
                                                       : codegen::JitOptimization::kFast;
}

// A pipeline compiled on its own is optimized by the rows of its own source table (ICDE 2018,
// section IV-C, chooses each pipeline's mode by its work): a query's small pipelines (the
// builds of dimension tables, those over aggregation results) take the fast tier even where
// its scan of a large table is optimized.
uint64_t pipeline_source_rows(const PipelineDescription& pipeline) {
  return pipeline.source == PipelineDescription::Source::kTable && pipeline.table
             ? pipeline.table->row_count()
             : 0;
}

// A plan of one pipeline straight into the result over at most one morsel (a point lookup
// through an index) runs on the calling thread: a task arena and morsel dispatch would cost
// more than the lookup (bench/RESULTS.md, prepared lookups).
bool single_morsel_plan(const plan::PhysicalDescription& physical, QueryState& state) {
  if (physical.pipelines.size() != 1) return false;
  const PipelineDescription& pipeline = physical.pipelines[0];
  return pipeline.sink == PipelineDescription::Sink::kResult && !pipeline.initial_groups &&
         morsels_of(pipeline, state).size() <= 1;
}

}  // namespace

uint32_t default_vector_size(ExecutionMode mode) {
  // Adaptive execution's morsels may switch engines over the same scanners: the vectorized
  // engine's chunk size, which the compiled code runs with as well.
  return mode == ExecutionMode::kCompiled ? ScanSettings::kDefaultVectorSize
                                          : vectorized::kDefaultChunkCapacity;
}

uint32_t default_thread_count() {
  // Asked once: the C library reads it from sysfs each time, which would cost a prepared
  // point lookup several microseconds.
  static const uint32_t count = std::max(1u, std::thread::hardware_concurrency());
  return count;
}

uint32_t worker_count(const ExecutionOptions& options) {
  uint32_t threads = std::max(1u, options.threads);
  return options.oversubscribe ? threads : std::min(threads, default_thread_count());
}

ThreadPoolCapacity::ThreadPoolCapacity(uint32_t threads) {
  size_t pool = tbb::global_control::active_value(tbb::global_control::max_allowed_parallelism);
  if (threads > pool) {
    control_ = std::make_unique<tbb::global_control>(tbb::global_control::max_allowed_parallelism,
                                                     threads);
  }
}

QueryOutput execute_compiled(const plan::PhysicalPlan& plan, const ExecutionOptions& options,
                             QueryProfile* profile) {
  return CompiledQuery(plan, options, profile != nullptr).run(profile);
}

QueryOutput execute_plan(const plan::PhysicalPlan& plan, const ExecutionOptions& options,
                         QueryProfile* profile) {
  if (options.execution_mode == ExecutionMode::kVectorized)
    return execute_vectorized(plan, options, profile);
  if (options.execution_mode == ExecutionMode::kAdaptive)
    return execute_adaptive(plan, options, profile);
  return execute_compiled(plan, options, profile);
}

GeneratedProgram generate_program(const plan::PhysicalPlan& plan,
                                  std::shared_ptr<const plan::PhysicalDescription> physical,
                                  bool count_rows, const std::atomic<bool>* abandoned) {
  Stopwatch clock;
  codegen::GenerateOptions generate;
  generate.count_rows = count_rows;
  generate.abandoned = abandoned;
  GeneratedProgram generated;
  generated.program = std::make_unique<codegen::QueryProgram>(
      codegen::generate_query(plan, std::move(physical), generate));
  const auto& slots = generated.program->physical->slots;
  for (uint32_t slot = 0; slot < slots.size(); ++slot) {
    if (slots[slot].kind != plan::StateSlot::Kind::kScanCursors || !slots[slot].scan) continue;
    const auto& restrictions = slots[slot].scan->restrictions;
    if (std::any_of(restrictions.begin(), restrictions.end(), [](const auto& restriction) {
          return plan::has_parameters(restriction.restriction);
        }))
      generated.parameterized_scans.push_back(slot);
  }
  generated.codegen_ms = clock.lap_ms();
  return generated;
}

CompiledQuery::CompiledQuery(const plan::PhysicalPlan& plan, const ExecutionOptions& options,
                             bool count_rows)
    : CompiledQuery(generate_program(plan, describe(plan, options), count_rows), options) {}

CompiledQuery::CompiledQuery(GeneratedProgram generated, const ExecutionOptions& options,
                             Compilation compilation)
    : options_(options),
      program_(std::move(generated.program)),
      parameterized_scans_(std::move(generated.parameterized_scans)) {
  Stopwatch clock;
  codegen_ms_ = generated.codegen_ms;
  size_t pipelines = program_->pipelines.size();
  if (compilation == Compilation::kPerPipeline) {
    parts_ = std::make_unique<codegen::ModulePartCompiler>(std::move(program_->context),
                                                           std::move(program_->module));
    modules_.reserve(pipelines);
    pipeline_code_.assign(pipelines, nullptr);
    functions_.assign(pipelines, nullptr);
    for (const auto& pipeline : program_->physical->pipelines)  // (tables are read here only)
      pipeline_levels_.push_back(choose_level(options, pipeline_source_rows(pipeline),
                                              kOptimizeInBackgroundAboveRowsPerWorker));
    return;
  }
  auto level = choose_level(options, program_->physical->scanned_rows, kOptimizeAboveRowsPerWorker);
  optimized_ = level == codegen::JitOptimization::kOptimized;
  codegen::optimize_module(*program_->module, level);
  modules_.push_back(codegen::compile_module(
      std::move(program_->context), std::move(program_->module), level, program_->entry_points()));
  for (const auto& pipeline : program_->pipelines) {
    pipeline_code_.push_back(modules_.back().get());
    functions_.push_back(
        reinterpret_cast<MorselFunction>(modules_.back()->lookup(pipeline.function)));
  }
  compile_ms_ = clock.lap_ms();
}

void CompiledQuery::compile_pipeline(size_t index) {
  Stopwatch clock;
  auto level = pipeline_levels_[index];
  optimized_ = optimized_ || level == codegen::JitOptimization::kOptimized;
  modules_.push_back(parts_->compile(program_->pipeline_entry_points(index), level));
  pipeline_code_[index] = modules_.back().get();
  functions_[index] = reinterpret_cast<MorselFunction>(
      modules_.back()->lookup(program_->pipelines[index].function));
  if (index + 1 == functions_.size()) parts_.reset();  // (frees the query's module)
  compile_ms_ += clock.lap_ms();
}

CompiledQuery::~CompiledQuery() = default;

QueryOutput CompiledQuery::run(QueryProfile* profile) { return run_with(profile, nullptr); }

const std::vector<const plan::LogicalOp*>& CompiledQuery::counted_operators() const {
  return program_->counted_operators;
}

void CompiledQuery::start_pipeline(size_t index, QueryState& state, QueryContext& query) const {
  const PipelineDescription& pipeline = program_->physical->pipelines[index];
  if (pipeline.sink == PipelineDescription::Sink::kAggregation && pipeline.global_aggregation) {
    // Without GROUP BY there is exactly one group (hash 0, no keys), even for empty input.
    state.aggregation_table(pipeline.sink_slot).insert(0, 0);
  }
  if (pipeline.initial_groups) {
    auto insert = reinterpret_cast<InitialGroupsFn>(
        pipeline_code_[index]->lookup(program_->pipelines[index].initial_groups_function));
    if (!insert(state.data(), &query.worker(0))) throw Error(query.error_message());
  }
}

void CompiledQuery::finish_pipeline(size_t index, QueryState& state, QueryContext& query) const {
  if (query.failed()) throw Error(query.error_message());
  const PipelineDescription& pipeline = program_->physical->pipelines[index];
  if (!pipeline.sink_continues)
    finalize_sink(*program_->physical, pipeline, program_->pipelines[index], state, query,
                  *pipeline_code_[index]);
}

void CompiledQuery::run_morsel(size_t index, const Morsel& morsel, uint32_t worker,
                               QueryState& state, QueryContext& query) const {
  if (!functions_[index](state.data(), &query.worker(worker), morsel.begin, morsel.end) &&
      !query.failed())
    query.fail("internal error: pipeline failed without a message");
}

// `serial`: on the calling thread as worker 0, outside any task arena (single_morsel_plan).
void CompiledQuery::run_pipeline(size_t index, QueryState& state, QueryContext& query,
                                 bool serial) const {
  const PipelineDescription& pipeline = program_->physical->pipelines[index];
  start_pipeline(index, state, query);
  auto stop = [&] { return pipeline_stopped(pipeline, state, query); };
  auto work = [&](const Morsel& morsel, uint32_t worker) {
    run_morsel(index, morsel, worker, state, query);
  };
  if (serial) {
    for (const Morsel& morsel : morsels_of(pipeline, state))
      if (!stop()) work(morsel, 0);
  } else {
    dispatch_morsels(morsels_of(pipeline, state), pipeline.ordered, stop, work);
  }
  finish_pipeline(index, state, query);
}

QueryOutput CompiledQuery::run_prepared(const ExecutionOptions& current,
                                        const std::vector<Value>& parameters) {
  options_.scan.snapshot = current.scan.snapshot;
  options_.scan.reads = current.scan.reads;
  options_.cancel = current.cancel;
  return run_with(nullptr, &parameters);
}

QueryOutput CompiledQuery::run_with(QueryProfile* profile, const std::vector<Value>* parameters) {
  const auto& program = *program_;
  const auto& physical = *program.physical;
  QueryOutput output;
  output.codegen_ms = codegen_ms_;
  output.compile_ms = compile_ms_;
  if (profile) profile->optimized = optimized_;
  Stopwatch clock;
  // Worker ids are thread indexes in the task arena: [0, workers). The sinks' finalize steps
  // run their parallel loops in it too.
  uint32_t workers = worker_count(options_);
  // A prepared statement's single-pipeline plan keeps its run between runs (query_run.h).
  const bool keep = parameters && !profile && physical.pipelines.size() == 1;
  std::unique_ptr<QueryRun> fresh;
  QueryRun* run = kept_run_.get();
  if (keep && run) {
    run->restart(options_, parameters);
  } else {
    fresh = std::make_unique<QueryRun>(physical.slots, parameterized_scans_, workers, options_,
                                       parameters);
    run = fresh.get();
  }
  QueryContext& query = run->query();
  QueryState& state = run->state();
  std::optional<WorkerRowCounts> row_counts;
  if (profile) row_counts.emplace(query, program.counted_operators.size());
  auto run_pipelines = [&](bool serial) {
    for (size_t p = 0; p < physical.pipelines.size(); ++p) {
      Stopwatch pipeline_clock;
      run_pipeline(p, state, query, serial);
      if (profile) profile->pipeline_ms[physical.pipelines[p].id] += pipeline_clock.lap_ms();
    }
  };
  if (single_morsel_plan(physical, state)) {
    run_pipelines(true);
  } else {
    ThreadPoolCapacity pool(workers);
    tbb::task_arena arena(static_cast<int>(workers));
    arena.execute([&] { run_pipelines(false); });
  }
  if (profile) {
    row_counts->sum_into(program.counted_operators, *profile);
    add_scan_statistics(physical.slots, state, workers, *profile);
    add_join_tables(physical, state, *profile);
  }
  read_result(physical, state, output);
  output.execute_ms = clock.lap_ms();
  output.workers = workers;
  if (keep && fresh && fresh->restartable()) kept_run_ = std::move(fresh);
  return output;
}

std::string generate_ir(const plan::PhysicalPlan& plan, const ExecutionOptions& options) {
  auto generated = generate_program(plan, describe(plan, options), false);
  std::string text;
  llvm::raw_string_ostream stream(text);
  generated.program->module->print(stream, nullptr);
  return stream.str();
}

}  // namespace floe
