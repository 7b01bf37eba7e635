// Adaptive execution's compilation (Kohn, Leis & Neumann, "Adaptive Execution of Compiled
// Queries", ICDE 2018, section IV; DESIGN.md "Vectorized execution"): a query's code is
// generated and compiled on one compile thread of the process, outside the task arena whose
// workers run its morsels, so that compilation never takes a worker. The pipelines are
// compiled one module each, in execution order, and the query runs on without their code and
// asks ready(pipeline) before each morsel.
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

#include "engine/exec/query_executor.h"

namespace floe {

// Waits until the compile thread has compiled or dropped every job queued so far (at once
// when it is idle or was never started). A Connection waits so when it closes: a program
// that ends right after its last query would otherwise destroy LLVM's static objects (those
// it creates on first use, after the compile thread) while the thread still compiles.
void wait_for_background_compiles();

class BackgroundCompile {
 public:
  // Queues the compilation of `plan` against `physical`, the physical description the query
  // runs with (both engines share its state slots). `count_rows`: see generate_program.
  static std::shared_ptr<BackgroundCompile> start(
      const plan::PhysicalPlan& plan, std::shared_ptr<const plan::PhysicalDescription> physical,
      const ExecutionOptions& options, bool count_rows);

  // The compiled code once pipeline `pipeline` (physical order) is compiled, else null; never
  // blocks. The pipelines are compiled in order, one module each.
  const CompiledQuery* ready(size_t pipeline) const;
  // Blocks until pipeline `pipeline` is compiled or the compilation ended. Returns the code,
  // or rethrows the compilation's error (floe::NotSupported for what the code generator does
  // not handle).
  const CompiledQuery& wait(size_t pipeline);
  // Generation plus compilation, once all pipelines are compiled (else negative).
  double compile_ms() const;
  // Whether some pipeline was compiled with the optimizing pass pipeline, once all are.
  bool compiled_optimized() const;
  // The query ended: the plan may go away.
  void release_plan();

  // The compile thread's work on this job.
  void compile();

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

  mutable std::mutex done_mutex_;
  std::condition_variable done_;
  bool done_flag_ = false;
  std::exception_ptr error_;
  std::unique_ptr<CompiledQuery> query_;       // set (under done_mutex_) once generated
  std::atomic<size_t> compiled_pipelines_{0};  // a prefix of query_'s pipelines
};

}  // namespace floe
