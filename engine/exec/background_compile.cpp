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

// The process's compile thread: takes the queued requests (a job and one of its pipelines)
// one after another. Created on first use, after the JIT engines (codegen::initialize_jit),
// so that at exit it is destroyed, and joined, before them: it drops the requests still
// queued and finishes the one it compiles.
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

  void push(std::shared_ptr<BackgroundCompile> job, size_t pipeline) {
    {
      std::lock_guard lock(mutex_);
      queue_.emplace_back(std::move(job), pipeline);
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
      std::pair<std::shared_ptr<BackgroundCompile>, size_t> request;
      {
        std::unique_lock lock(mutex_);
        wake_.wait(lock, [&] { return stop_ || !queue_.empty(); });
        if (stop_) return;
        request = std::move(queue_.front());
        queue_.pop_front();
        busy_ = true;
      }
      request.first->compile(request.second);
      request.first.reset();  // (frees an abandoned query's code)
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
  std::deque<std::pair<std::shared_ptr<BackgroundCompile>, size_t>> queue_;
  bool busy_ = false;  // compiling a request
  bool stop_ = false;
  std::thread thread_;
};

}  // namespace

BackgroundCompile::BackgroundCompile(const plan::PhysicalPlan& plan,
                                     std::shared_ptr<const plan::PhysicalDescription> physical,
                                     const ExecutionOptions& options, bool count_rows)
    : plan_(&plan),
      physical_(std::move(physical)),
      options_(options),
      count_rows_(count_rows),
      requested_(physical_->pipelines.size()),
      compiled_(physical_->pipelines.size()) {
  // The code is only ever run with a query's own options; these must not outlive the query.
  options_.cancel = nullptr;
  options_.copy_progress = nullptr;
  options_.load_progress = nullptr;
}

std::shared_ptr<BackgroundCompile> BackgroundCompile::start(
    const plan::PhysicalPlan& plan, std::shared_ptr<const plan::PhysicalDescription> physical,
    const ExecutionOptions& options, bool count_rows) {
  CompileThread::get();  // (created now, before the query may need it)
  return std::make_shared<BackgroundCompile>(plan, std::move(physical), options, count_rows);
}

void BackgroundCompile::request(size_t pipeline) {
  if (requested_[pipeline].exchange(true)) return;
  CompileThread::get().push(shared_from_this(), pipeline);
}

void BackgroundCompile::compile(size_t pipeline) {
  // A pipeline that ended while its request waited, or a query that ended, needs no code.
  if (abandoned_.load() || pipeline < running_.load()) return;
  try {
    if (error_) return;
    if (!query_) {
      std::unique_ptr<CompiledQuery> query;
      {
        std::lock_guard lock(plan_mutex_);
        if (abandoned_.load()) return;
        // (the construction reads the scanned tables' sizes: while the query, and so they,
        // live)
        query = std::make_unique<CompiledQuery>(
            generate_program(*plan_, physical_, count_rows_, &abandoned_), options_,
            CompiledQuery::Compilation::kPerPipeline);
      }
      std::lock_guard lock(done_mutex_);
      query_ = std::move(query);
    }
    query_->compile_pipeline(pipeline);
    {
      std::lock_guard lock(done_mutex_);
      compiled_[pipeline].store(true, std::memory_order_release);
      compile_ms_ = query_->codegen_ms() + query_->compile_ms();
      optimized_ = query_->optimized();
    }
  } catch (const codegen::QueryAbandoned&) {
    return;
  } catch (...) {
    std::lock_guard lock(done_mutex_);
    error_ = std::current_exception();
  }
  done_.notify_all();
}

const CompiledQuery* BackgroundCompile::ready(size_t pipeline) const {
  // (query_ is set before the first pipeline is published and kept from then on)
  return compiled_[pipeline].load(std::memory_order_acquire) ? query_.get() : nullptr;
}

const CompiledQuery& BackgroundCompile::wait(size_t pipeline) {
  request(pipeline);
  std::unique_lock lock(done_mutex_);
  done_.wait(lock, [&] { return error_ || compiled_[pipeline].load(); });
  if (compiled_[pipeline].load()) return *query_;
  std::rethrow_exception(error_);
}

void BackgroundCompile::running(size_t pipeline) {
  running_.store(pipeline);
}

double BackgroundCompile::compile_ms() const {
  std::lock_guard lock(done_mutex_);
  return compile_ms_;
}

bool BackgroundCompile::compiled_optimized() const {
  std::lock_guard lock(done_mutex_);
  return optimized_;
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
