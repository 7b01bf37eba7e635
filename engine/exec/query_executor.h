// Runs a physical plan through LLVM-generated code (the compiled executor), or hands it to
// the vectorized executor (vectorized_executor.h). Every SELECT, and the SELECT part of
// INSERT ... SELECT, goes through here.
#pragma once

#include <tbb/global_control.h>

#include <atomic>
#include <functional>
#include <map>
#include <memory>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "engine/plan/physical_description.h"
#include "engine/plan/physical_plan.h"
#include "engine/vector/chunk_operator.h"
#include "runtime/scan_restriction.h"
#include "storage/value.h"

namespace floe {

namespace codegen {
enum class JitOptimization : uint8_t;
struct QueryProgram;
class CompiledModule;
class ModulePartCompiler;
}  // namespace codegen

class QueryContext;
class QueryRun;
class QueryState;
struct Morsel;
struct WorkerContext;

enum class OptimizationLevel : uint8_t {
  kFast,       // no IR optimization passes, fast instruction selection
  kOptimized,  // the O2 pass pipeline
  kAuto,       // kOptimized when the plan reads many rows, else kFast
};

// Which scan feeds the compiled pipelines (DESIGN.md "Scans"): the precompiled vectorized
// scan, which applies SARGable restrictions itself, or the JIT scan, which evaluates every
// filter in the generated loop (kept so that the Data Blocks paper's comparisons can be run).
enum class ScanMode : uint8_t { kVectorized, kJit };

// Which engine runs a query's pipelines (`SET execution_mode`, DESIGN.md "Vectorized
// execution"): LLVM-generated code, or the interpreted vectorized operators, over the same
// physical plan and state, or both (adaptive_executor.h): vectorized at once, compiled as soon
// as the code is ready.
enum class ExecutionMode : uint8_t { kCompiled, kVectorized, kAdaptive };

// The rows per vector an engine runs with unless `SET vector_size` says otherwise: the scan
// batches compiled code loops over hold 8192 (Data Blocks paper §4); the vectorized engine's
// chunks, which are those batches, 2048 (X100 thesis §5.3: vectors that stay in the cache).
uint32_t default_vector_size(ExecutionMode mode);

// The number of hardware threads (at least 1): the default of `SET threads`.
uint32_t default_thread_count();

struct ExecutionOptions {
  OptimizationLevel optimization = OptimizationLevel::kAuto;
  // Workers of a query (morsel-driven) and of CALL dbgen, as requested (`SET threads`);
  // worker_count() says how many are used.
  uint32_t threads = default_thread_count();
  // API only (tests): run `threads` workers even beyond the cores. Otherwise more workers
  // than cores would only take turns on them, so `threads` is capped at the cores.
  bool oversubscribe = false;
  ExecutionMode execution_mode = ExecutionMode::kCompiled;
  // API only (tests): in adaptive mode, the query's first `adaptive_switch_morsel` morsels run
  // vectorized and every later one waits for the code and runs compiled (0: no such hook).
  uint64_t adaptive_switch_morsel = 0;
  // API only (tests): in adaptive mode, the first `adaptive_compiled_pipelines` pipelines wait
  // for their code and run compiled, the later ones vectorized (0: no such hook).
  uint32_t adaptive_compiled_pipelines = 0;
  // Whether `SET vector_size` chose scan.vector_size; until it does, SET execution_mode sets
  // it to the mode's default_vector_size.
  bool vector_size_set = false;
  ScanMode scan_mode = ScanMode::kVectorized;
  // Vectorized scans apply the scan restrictions (off: the generated code evaluates them).
  bool sarg_pushdown = true;
  ScanSettings scan;
  // The table of every hash join (`SET join_table`, plan::JoinTableKind).
  plan::JoinTableKind join_table = plan::JoinTableKind::kChaining;
  // Whether hash joins may become index nested-loop joins (`SET enable_index_join`).
  bool index_join = true;
  // How the vectorized engine's filters and joins compact their chunks (`SET compaction`,
  // plan::CompactionStrategy; engine/vector/compaction.h).
  plan::CompactionStrategy compaction = plan::CompactionStrategy::kBinary;
  // Passed on to CsvOptions::progress by COPY FROM (the shell shows loading progress).
  std::function<void(uint64_t rows)> copy_progress;
  // Called by CALL dbgen after every loaded range: the tables being loaded ("orders+lineitem")
  // and how many of their `total` generated parent rows are in (the shell draws a bar).
  std::function<void(std::string_view tables, uint64_t done, uint64_t total)> load_progress;
  // The running statement's cancel flag (runtime/cancellation.h), set by the Connection.
  const std::atomic<bool>* cancel = nullptr;
};

// The number of workers queries run on: `threads`, capped at default_thread_count() unless
// `oversubscribe` (SHOW threads reports this).
uint32_t worker_count(const ExecutionOptions& options);

// oneTBB's thread pool has one thread per core unless told otherwise, and an arena with more
// slots than that silently runs on fewer threads. While alive, this raises the pool to
// `threads` when that is more, so that every worker of an oversubscribed arena has a thread.
class ThreadPoolCapacity {
 public:
  explicit ThreadPoolCapacity(uint32_t threads);

 private:
  std::unique_ptr<tbb::global_control> control_;
};

struct QueryOutput {
  std::vector<std::string> column_names;
  std::vector<SqlType> column_types;
  std::vector<std::vector<Value>> rows;
  double codegen_ms = 0;  // building LLVM IR
  double compile_ms = 0;  // LLVM optimization + machine code
  double execute_ms = 0;  // running the pipelines
  uint32_t workers = 0;   // the workers (threads of the task arena) it ran on
};

// What a run measures for EXPLAIN ANALYZE.
struct QueryProfile {
  // The rows each operator produced (passed on to its consumer), summed over the workers.
  std::unordered_map<const plan::LogicalOp*, uint64_t> operator_rows;
  // Vectorized engine: the chunks each streaming operator received and passed on.
  std::unordered_map<const plan::LogicalOp*, vectorized::ChunkCounts> operator_chunks;
  // Vectorized engine, learned and smart compaction: per filter and join, how often its
  // learner selected each threshold (rows), summed over the pipeline runs.
  std::unordered_map<const plan::LogicalOp*, std::map<uint32_t, uint64_t>> learned_thresholds;
  // What each scan's vectorized scanner did (blocks skipped, PSMA, rows matched).
  std::unordered_map<const plan::LogicalOp*, ScanStatistics> scans;
  // Wall time by plan::Pipeline::id: its morsels and the finalization of its sink.
  std::map<int, double> pipeline_ms;
  // The table each CHT/CAT hash join built (SET join_table): "CAT, <bytes> bytes".
  std::unordered_map<const plan::LogicalOp*, std::string> join_tables;
  bool optimized = false;  // compiled with the O2 pass pipeline (else the fast path)
  // Adaptive execution: the morsels each engine ran, by plan::Pipeline::id, and the time the
  // background code generation and compilation took (negative: unfinished when the query
  // ended).
  struct EngineMorsels {
    uint64_t vectorized = 0;
    uint64_t compiled = 0;
  };
  std::map<int, EngineMorsels> pipeline_morsels;
  double background_compile_ms = -1;
};

// Throws floe::Error on a runtime error (division by zero, overflow, invalid cast, ...).
// With a `profile`, the generated code also counts rows and the run is measured into it.
QueryOutput execute_compiled(const plan::PhysicalPlan& plan, const ExecutionOptions& options,
                             QueryProfile* profile = nullptr);

// Runs the plan on the engine options.execution_mode names (the compiled or the vectorized
// executor).
QueryOutput execute_plan(const plan::PhysicalPlan& plan, const ExecutionOptions& options,
                         QueryProfile* profile = nullptr);

// A query's generated module, not compiled yet, and the time generating it took.
struct GeneratedProgram {
  std::unique_ptr<codegen::QueryProgram> program;
  std::vector<uint32_t> parameterized_scans;  // slots of scans comparing with parameters
  double codegen_ms = 0;
};

// Generates the code of `plan` against its physical description `physical`. `count_rows`: the
// code counts each operator's rows (EXPLAIN ANALYZE, run with a profile). `abandoned`: see
// codegen::GenerateOptions.
GeneratedProgram generate_program(const plan::PhysicalPlan& plan,
                                  std::shared_ptr<const plan::PhysicalDescription> physical,
                                  bool count_rows, const std::atomic<bool>* abandoned = nullptr);

// A plan's code, generated and compiled once, run any number of times, each run with fresh
// hash tables, buffers and counters and over the tables' rows of the moment (the recursive
// term of WITH RECURSIVE runs so over its working table). Only the generation reads the plan.
class CompiledQuery {
 public:
  CompiledQuery(const plan::PhysicalPlan& plan, const ExecutionOptions& options,
                bool count_rows = false);
  // How a generated program is compiled: all of it now, or (adaptive execution) one module
  // per pipeline, each when compile_pipeline is called.
  enum class Compilation : uint8_t { kWhole, kPerPipeline };
  CompiledQuery(GeneratedProgram generated, const ExecutionOptions& options,
                Compilation compilation = Compilation::kWhole);
  ~CompiledQuery();
  CompiledQuery(const CompiledQuery&) = delete;
  CompiledQuery& operator=(const CompiledQuery&) = delete;

  // codegen_ms and compile_ms are those of the construction.
  QueryOutput run(QueryProfile* profile = nullptr);
  // A prepared statement's run: with the snapshot and cancel flag of the statement running
  // it (`current`) and its $n values (`parameters`, each of its parameter's type). Reuses
  // the previous run's context and state (query_run.h): runs must not overlap.
  QueryOutput run_prepared(const ExecutionOptions& current, const std::vector<Value>& parameters);

  // kPerPipeline: compiles the module of pipeline `index` (physical pipeline order), which
  // other threads may then run while the next one compiles (the caller publishes it).
  void compile_pipeline(size_t index);
  size_t pipeline_count() const { return functions_.size(); }

  // A pipeline's steps (physical pipeline `index`) for an executor that dispatches the morsels
  // itself (adaptive_executor.h): before its first morsel, one morsel on `worker` (a runtime
  // error fails the query), and after its last morsel (throws when the query failed;
  // finalizes the sink). With kPerPipeline, only once that pipeline is compiled.
  void start_pipeline(size_t index, QueryState& state, QueryContext& query) const;
  void run_morsel(size_t index, const Morsel& morsel, uint32_t worker, QueryState& state,
                  QueryContext& query) const;
  void finish_pipeline(size_t index, QueryState& state, QueryContext& query) const;
  // With row counting: the operator behind each entry of WorkerContext::row_counts.
  const std::vector<const plan::LogicalOp*>& counted_operators() const;
  double codegen_ms() const { return codegen_ms_; }
  double compile_ms() const { return compile_ms_; }
  // Compiled with the O2 pass pipeline (kPerPipeline: some pipeline so far).
  bool optimized() const { return optimized_; }

 private:
  QueryOutput run_with(QueryProfile* profile, const std::vector<Value>* parameters);
  void run_pipeline(size_t index, QueryState& state, QueryContext& query, bool serial) const;

  ExecutionOptions options_;
  std::unique_ptr<codegen::QueryProgram> program_;
  std::unique_ptr<codegen::ModulePartCompiler> parts_;  // kPerPipeline, until all are compiled
  std::vector<codegen::JitOptimization> pipeline_levels_;  // kPerPipeline
  // The machine code: one module, or one per pipeline.
  std::vector<std::unique_ptr<codegen::CompiledModule>> modules_;
  std::vector<const codegen::CompiledModule*> pipeline_code_;  // per pipeline
  using MorselFunction = bool (*)(void** state, WorkerContext* worker, uint64_t begin,
                                  uint64_t end);
  std::vector<MorselFunction> functions_;      // per pipeline
  std::vector<uint32_t> parameterized_scans_;  // slots of scans comparing with parameters
  // run_prepared's context and state, restarted by each run (query_run.h); null until the
  // first such run of a plan that allows it.
  std::unique_ptr<QueryRun> kept_run_;
  double codegen_ms_ = 0;
  double compile_ms_ = 0;
  bool optimized_ = false;
};

// The LLVM IR of the query's module, one function per pipeline (EXPLAIN (IR)).
std::string generate_ir(const plan::PhysicalPlan& plan, const ExecutionOptions& options);

}  // namespace floe
