// Adaptive execution's compilation (Kohn, Leis & Neumann, "Adaptive Execution of Compiled
// Queries", ICDE 2018, section IV; DESIGN.md "Vectorized execution"): a query's code is
// generated and compiled on one compile thread of the process, outside the task arena whose
// workers run its morsels, so that compilation never takes a worker. Nothing is compiled
// until the query requests a pipeline (adaptive_executor.cpp requests the pipelines whose
// remaining work is worth compiling); then its IR is generated, once, and each requested
// pipeline compiled as a module of its own. The query runs on without the code and asks
// ready(pipeline) before each morsel.
//
// Lifetime: the job reads the plan only while it generates the IR. A query that ends first
// calls release_plan(), which waits for at most one pipeline's IR generation and makes the
// job skip the rest; LLVM's compilation, which only reads the job's own module, stops after
// the pipeline it compiles, and the code is freed with the job (whoever drops it last).
#pragma once

#include <atomic>
#include <condition_variable>
#include <exception>
#include <memory>
#include <mutex>
#include <vector>

#include "engine/exec/query_executor.h"

namespace floe {

// Waits until the compile thread has compiled or dropped every request queued so far (at
// once when it is idle or was never started). A Connection waits so when it closes: a
// program that ends right after its last query would otherwise destroy LLVM's static objects
// (those it creates on first use, after the compile thread) while the thread still compiles.
void wait_for_background_compiles();

class BackgroundCompile : public std::enable_shared_from_this<BackgroundCompile> {
 public:
  // A job for the compilation of `plan` against `physical`, the physical description the
  // query runs with (both engines share its state slots). `count_rows`: see
  // generate_program. Compiles nothing before request().
  static std::shared_ptr<BackgroundCompile> start(
      const plan::PhysicalPlan& plan, std::shared_ptr<const plan::PhysicalDescription> physical,
      const ExecutionOptions& options, bool count_rows);

  // Queues the compilation of pipeline `pipeline` (physical order; once, later calls do
  // nothing). The compile thread skips it if the query has gone past it by then.
  void request(size_t pipeline);
  // The query runs pipeline `pipeline` now (the earlier ones need no code any more).
  void running(size_t pipeline);
  // The compiled code once pipeline `pipeline` is compiled, else null; never blocks.
  const CompiledQuery* ready(size_t pipeline) const;
  // Requests pipeline `pipeline` and blocks until it is compiled. Returns the code, or
  // rethrows the compilation's error (floe::NotSupported for what the code generator does
  // not handle).
  const CompiledQuery& wait(size_t pipeline);
  // Generation plus compilation of the pipelines compiled so far (negative: none).
  double compile_ms() const;
  // Whether a pipeline compiled so far took the optimizing pass pipeline.
  bool compiled_optimized() const;
  // The query ended: the plan may go away.
  void release_plan();

  // The compile thread's work on a request of this job.
  void compile(size_t pipeline);

  BackgroundCompile(const plan::PhysicalPlan& plan,
                    std::shared_ptr<const plan::PhysicalDescription> physical,
                    const ExecutionOptions& options, bool count_rows);

 private:
  std::mutex plan_mutex_;  // held while the IR generation reads the plan
  const plan::PhysicalPlan* plan_;
  std::atomic<bool> abandoned_{false};
  std::shared_ptr<const plan::PhysicalDescription> physical_;
  ExecutionOptions options_;
  bool count_rows_;
  std::vector<std::atomic<bool>> requested_;  // per pipeline
  std::atomic<size_t> running_{0};

  // The compile thread's (which alone writes them; under done_mutex_ for the readers).
  mutable std::mutex done_mutex_;
  std::condition_variable done_;
  std::exception_ptr error_;
  std::unique_ptr<CompiledQuery> query_;     // once generated
  std::vector<std::atomic<bool>> compiled_;  // per pipeline, published with release
  double compile_ms_ = -1;
  bool optimized_ = false;
};

}  // namespace floe
