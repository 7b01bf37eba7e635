#include "engine/exec/background_compile.h"

#include <deque>
#include <thread>

#include "codegen/jit.h"
#include "codegen/query_program.h"
#include "storage/error.h"

namespace floe {
namespace {

class CompileThread;
std::atomic<CompileThread*> compile_thread{nullptr};  // once created

// The process's compile thread: takes the queued jobs one after another. Created on first
// use, after the JIT engines (codegen::initialize_jit), so that at exit it is destroyed, and
// joined, before them: it drops the jobs still queued and finishes the one it compiles.
class CompileThread {
 public:
  static CompileThread& get() {
    static CompileThread thread;
    compile_thread.store(&thread);
    return thread;
  }

  void wait_idle() {
    std::unique_lock lock(mutex_);
    idle_.wait(lock, [&] { return stop_ || (queue_.empty() && !busy_); });
  }

  void push(std::shared_ptr<BackgroundCompile> job) {
    {
      std::lock_guard lock(mutex_);
      queue_.push_back(std::move(job));
    }
    wake_.notify_one();
  }

  ~CompileThread() {
    compile_thread.store(nullptr);
    {
      std::lock_guard lock(mutex_);
      stop_ = true;
    }
    wake_.notify_one();
    idle_.notify_all();
    thread_.join();
  }

 private:
  CompileThread() {
    codegen::initialize_jit();
    thread_ = std::thread([this] { loop(); });
  }

  void loop() {
    for (;;) {
      std::shared_ptr<BackgroundCompile> job;
      {
        std::unique_lock lock(mutex_);
        wake_.wait(lock, [&] { return stop_ || !queue_.empty(); });
        if (stop_) return;
        job = std::move(queue_.front());
        queue_.pop_front();
        busy_ = true;
      }
      job->compile();
      job.reset();  // (frees an abandoned query's code)
      {
        std::lock_guard lock(mutex_);
        busy_ = false;
      }
      idle_.notify_all();
    }
  }

  std::mutex mutex_;
  std::condition_variable wake_;
  std::condition_variable idle_;
  std::deque<std::shared_ptr<BackgroundCompile>> queue_;
  bool busy_ = false;  // compiling a job
  bool stop_ = false;
  std::thread thread_;
};

}  // namespace

BackgroundCompile::BackgroundCompile(const plan::PhysicalPlan& plan,
                                     std::shared_ptr<const plan::PhysicalDescription> physical,
                                     const ExecutionOptions& options, bool count_rows)
    : plan_(&plan), physical_(std::move(physical)), options_(options), count_rows_(count_rows) {
  // The code is only ever run with a query's own options; these must not outlive the query.
  options_.cancel = nullptr;
  options_.copy_progress = nullptr;
  options_.load_progress = nullptr;
}

std::shared_ptr<BackgroundCompile> BackgroundCompile::start(
    const plan::PhysicalPlan& plan, std::shared_ptr<const plan::PhysicalDescription> physical,
    const ExecutionOptions& options, bool count_rows) {
  auto job = std::make_shared<BackgroundCompile>(plan, std::move(physical), options, count_rows);
  CompileThread::get().push(job);
  return job;
}

void BackgroundCompile::compile() {
  std::exception_ptr error;
  try {
    std::unique_ptr<CompiledQuery> query;
    {
      std::lock_guard lock(plan_mutex_);
      if (abandoned_.load()) throw codegen::QueryAbandoned{};
      // (the construction reads the scanned tables' sizes: while the query, and so they, live)
      query = std::make_unique<CompiledQuery>(
          generate_program(*plan_, physical_, count_rows_, &abandoned_), options_,
          CompiledQuery::Compilation::kPerPipeline);
    }
    {
      std::lock_guard lock(done_mutex_);
      query_ = std::move(query);
    }
    // One module per pipeline, in execution order, each published as soon as it is compiled;
    // an abandoned query's compilation stops between them (LLVM cannot be interrupted
    // within one), and what was compiled is freed with the job.
    for (size_t p = 0; p < query_->pipeline_count() && !abandoned_.load(); ++p) {
      query_->compile_pipeline(p);
      {
        std::lock_guard lock(done_mutex_);
        compiled_pipelines_.store(p + 1, std::memory_order_release);
      }
      done_.notify_all();
    }
  } catch (...) {
    error = std::current_exception();
  }
  {
    std::lock_guard lock(done_mutex_);
    error_ = error;
    done_flag_ = true;
  }
  done_.notify_all();
}

const CompiledQuery* BackgroundCompile::ready(size_t pipeline) const {
  // (query_ is set before the first pipeline is published and kept from then on)
  return compiled_pipelines_.load(std::memory_order_acquire) > pipeline ? query_.get() : nullptr;
}

const CompiledQuery& BackgroundCompile::wait(size_t pipeline) {
  std::unique_lock lock(done_mutex_);
  done_.wait(lock, [&] { return done_flag_ || compiled_pipelines_.load() > pipeline; });
  if (compiled_pipelines_.load() > pipeline) return *query_;
  if (error_) std::rethrow_exception(error_);
  throw Error("internal error: the background compilation ended without the pipeline's code");
}

double BackgroundCompile::compile_ms() const {
  std::lock_guard lock(done_mutex_);
  if (!query_ || compiled_pipelines_.load() < query_->pipeline_count()) return -1;
  return query_->codegen_ms() + query_->compile_ms();
}

bool BackgroundCompile::compiled_optimized() const {
  std::lock_guard lock(done_mutex_);
  return query_ && compiled_pipelines_.load() == query_->pipeline_count() && query_->optimized();
}

void wait_for_background_compiles() {
  if (CompileThread* thread = compile_thread.load()) thread->wait_idle();
}

void BackgroundCompile::release_plan() {
  abandoned_.store(true);
  std::lock_guard lock(plan_mutex_);  // waits while a pipeline's IR is being generated
  plan_ = nullptr;
}

}  // namespace floe
