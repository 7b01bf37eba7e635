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
#include "engine/exec/morsel_dispatch.h"
#include "engine/exec/query_state.h"
#include "engine/plan/parameter_restrictions.h"
#include "engine/plan/physical_description.h"
#include "runtime/parameter_slot.h"
#include "runtime/query_context.h"
#include "runtime/window_evaluator.h"
#include "storage/error.h"

namespace floe {
namespace {

using codegen::PipelineProgram;
using plan::PipelineDescription;
using PipelineFn = bool (*)(void** state, WorkerContext* worker, uint64_t begin, uint64_t end);
using InitialGroupsFn = bool (*)(void** state, WorkerContext* worker);

// kAuto compiles optimized code when the scanned tables hold more rows per worker than this:
// below, the extra 10-30 ms of optimization cost more than the faster code saves (measured on
// TPC-H, bench/RESULTS.md).
constexpr uint64_t kOptimizeAboveRowsPerWorker = 500'000;

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

std::vector<Morsel> morsels_of(const PipelineDescription& pipeline, QueryState& state) {
  switch (pipeline.source) {
    case PipelineDescription::Source::kTable:
      if (const std::vector<uint64_t>* rows = state.index_rows(pipeline.source_slot))
        return row_id_morsels(*rows);
      return table_morsels(*pipeline.table);
    case PipelineDescription::Source::kValues:
      return index_morsels(pipeline.value_rows);
    case PipelineDescription::Source::kAggregation:
      return index_morsels(state.aggregation_table(pipeline.source_slot).group_count());
    case PipelineDescription::Source::kRows:
      return index_morsels(state.rows(pipeline.source_slot).size());
    case PipelineDescription::Source::kJoinUnmatched:
      return index_morsels(state.join_table(pipeline.source_slot).slot_count());
  }
  return {};
}

// A pipeline whose LIMIT has let through all it will is done: nothing more reaches its sink.
bool limit_reached(const PipelineDescription& pipeline, const QueryState& state) {
  return std::any_of(pipeline.limits.begin(), pipeline.limits.end(), [&](const auto& limit) {
    return state.counter(limit.counter_slot) >= limit.end;
  });
}

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

// Whether the pipeline that reads the rows of `slot` reads them in order
// (plan::Pipeline::ordered).
bool reader_needs_order(const plan::PhysicalDescription& physical, uint32_t slot) {
  return std::any_of(physical.pipelines.begin(), physical.pipelines.end(), [&](const auto& reader) {
    return reader.source == PipelineDescription::Source::kRows && reader.source_slot == slot &&
           reader.ordered;
  });
}

// The long steps poll the statement's cancel flag (runtime/cancellation.h).
void finalize_sink(const plan::PhysicalDescription& physical, const PipelineDescription& pipeline,
                   const PipelineProgram& functions, QueryState& state, QueryContext& query,
                   const codegen::CompiledModule& code) {
  switch (pipeline.sink) {
    case PipelineDescription::Sink::kJoinBuild:
      state.join_table(pipeline.sink_slot).finalize(query.cancel_flag());
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

void run_pipeline(const plan::PhysicalDescription& physical, const PipelineDescription& pipeline,
                  const PipelineProgram& functions, QueryState& state, QueryContext& query,
                  const codegen::CompiledModule& code) {
  auto function = reinterpret_cast<PipelineFn>(code.lookup(functions.function));
  if (pipeline.sink == PipelineDescription::Sink::kAggregation && pipeline.global_aggregation) {
    // Without GROUP BY there is exactly one group (hash 0, no keys), even for empty input.
    state.aggregation_table(pipeline.sink_slot).insert(0, 0);
  }
  if (pipeline.initial_groups) {
    auto insert = reinterpret_cast<InitialGroupsFn>(code.lookup(functions.initial_groups_function));
    if (!insert(state.data(), &query.worker(0))) throw Error(query.error_message());
  }
  dispatch_morsels(
      morsels_of(pipeline, state), pipeline.ordered,
      [&] { return query.failed() || query.check_canceled() || limit_reached(pipeline, state); },
      [&](const Morsel& morsel, uint32_t worker) {
        if (!function(state.data(), &query.worker(worker), morsel.begin, morsel.end) &&
            !query.failed())
          query.fail("internal error: pipeline failed without a message");
      });
  if (query.failed()) throw Error(query.error_message());
  if (!pipeline.sink_continues) finalize_sink(physical, pipeline, functions, state, query, code);
}

std::vector<std::vector<Value>> read_result(const plan::PhysicalDescription& physical,
                                            QueryState& state) {
  auto& rows = state.rows(physical.result_slot);
  const auto& layout = physical.result_layout;
  std::vector<std::vector<Value>> result;
  result.reserve(rows.size());
  for (uint64_t r = 0; r < rows.size(); ++r) {
    const uint8_t* row = rows.row(r);
    std::vector<Value> values;
    for (size_t c = 0; c < layout.field_count(); ++c) {
      const SqlType& type = physical.result_columns[c].type;
      values.push_back(row[layout.null_offset(c)]
                           ? Value::null(type)
                           : Value::read_physical(row + layout.offset(c), type));
    }
    result.push_back(std::move(values));
  }
  return result;
}

// The physical planning step: what the executor and the generated code share.
std::shared_ptr<const plan::PhysicalDescription> describe(const plan::PhysicalPlan& plan,
                                                          const ExecutionOptions& options) {
  plan::DescribeOptions describe;
  describe.push_restrictions = options.scan_mode == ScanMode::kVectorized && options.sarg_pushdown;
  return std::make_shared<const plan::PhysicalDescription>(plan::describe_physical(plan, describe));
}

codegen::QueryProgram generate(const plan::PhysicalPlan& plan, const ExecutionOptions& options,
                               bool count_rows) {
  codegen::GenerateOptions generate;
  generate.count_rows = count_rows;
  return codegen::generate_query(plan, describe(plan, options), generate);
}

codegen::JitOptimization choose_level(const ExecutionOptions& options,
                                      const codegen::QueryProgram& program) {
  switch (options.optimization) {
    case OptimizationLevel::kFast:
      return codegen::JitOptimization::kFast;
    case OptimizationLevel::kOptimized:
      return codegen::JitOptimization::kOptimized;
    case OptimizationLevel::kAuto:
      break;
  }
  uint64_t workers = worker_count(options);
  return program.physical->scanned_rows / workers > kOptimizeAboveRowsPerWorker
             ? codegen::JitOptimization::kOptimized
             : codegen::JitOptimization::kFast;
}

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

}  // namespace

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

CompiledQuery::CompiledQuery(const plan::PhysicalPlan& plan, const ExecutionOptions& options,
                             bool count_rows)
    : options_(options) {
  Stopwatch clock;
  program_ = std::make_unique<codegen::QueryProgram>(generate(plan, options, count_rows));
  slots_ = program_->physical->slots;
  for (auto [slot, row_size] : program_->window_row_sizes) slots_[slot].size = row_size;
  for (uint32_t slot = 0; slot < slots_.size(); ++slot) {
    if (slots_[slot].kind != plan::StateSlot::Kind::kScanCursors || !slots_[slot].scan) continue;
    const auto& restrictions = slots_[slot].scan->restrictions;
    if (std::any_of(restrictions.begin(), restrictions.end(), [](const auto& restriction) {
          return plan::has_parameters(restriction.restriction);
        }))
      parameterized_scans_.push_back(slot);
  }
  codegen_ms_ = clock.lap_ms();
  auto level = choose_level(options, *program_);
  optimized_ = level == codegen::JitOptimization::kOptimized;
  codegen::optimize_module(*program_->module, level);
  code_ = codegen::compile_module(std::move(program_->context), std::move(program_->module), level,
                                  program_->entry_points());
  compile_ms_ = clock.lap_ms();
}

CompiledQuery::~CompiledQuery() = default;

QueryOutput CompiledQuery::run(QueryProfile* profile) { return run_with(profile, nullptr); }

QueryOutput CompiledQuery::run_prepared(const ExecutionOptions& current,
                                        const std::vector<Value>& parameters) {
  options_.scan.snapshot = current.scan.snapshot;
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
  // Worker ids are thread indexes in this arena: [0, workers). The sinks' finalize steps
  // run their parallel loops in it too.
  uint32_t workers = worker_count(options_);
  ThreadPoolCapacity pool(workers);
  tbb::task_arena arena(static_cast<int>(workers));
  std::vector<ParameterSlot> parameter_values;
  if (parameters) parameter_values = parameter_slots(*parameters);
  QueryContext query(workers, options_.cancel, parameter_values.data());
  // Scans that compare with parameters take this run's values (parameter_restrictions.h).
  std::vector<plan::StateSlot> bound_slots;
  if (parameters && !parameterized_scans_.empty()) {
    bound_slots = slots_;
    for (uint32_t slot : parameterized_scans_)
      plan::bind_scan_parameters(bound_slots[slot], *parameters);
  }
  QueryState state(bound_slots.empty() ? slots_ : bound_slots, query.worker_count(), options_.scan);
  std::optional<WorkerRowCounts> row_counts;
  if (profile) row_counts.emplace(query, program.counted_operators.size());
  arena.execute([&] {
    for (size_t p = 0; p < physical.pipelines.size(); ++p) {
      Stopwatch pipeline_clock;
      run_pipeline(physical, physical.pipelines[p], program.pipelines[p], state, query, *code_);
      if (profile) profile->pipeline_ms[physical.pipelines[p].id] += pipeline_clock.lap_ms();
    }
  });
  if (profile) {
    row_counts->sum_into(program.counted_operators, *profile);
    for (uint32_t slot = 0; slot < slots_.size(); ++slot)
      if (slots_[slot].kind == plan::StateSlot::Kind::kScanCursors)
        profile->scans[slots_[slot].scan] += state.scan_statistics(slot, workers);
  }
  output.rows = read_result(physical, state);
  for (const auto& column : physical.result_columns) {
    output.column_names.push_back(column.name);
    output.column_types.push_back(column.type);
  }
  output.execute_ms = clock.lap_ms();
  output.workers = workers;
  return output;
}

std::string generate_ir(const plan::PhysicalPlan& plan, const ExecutionOptions& options) {
  auto program = generate(plan, options, false);
  std::string text;
  llvm::raw_string_ostream stream(text);
  program.module->print(stream, nullptr);
  return stream.str();
}

}  // namespace floe
