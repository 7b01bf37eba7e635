// Per-query and per-worker execution state handed to generated code. Generated pipelines
// never touch globals: everything they need comes through these and the query state array.
#pragma once

#include <atomic>
#include <cstdint>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "storage/sequence_session.h"
#include "storage/string_heap.h"

namespace floe {

class QueryContext;
struct ParameterSlot;

// One per worker thread. `strings` holds strings computed by the query (concatenation,
// substrings of computed values, casts to text); it lives as long as the query's result.
struct WorkerContext {
  uint32_t worker_id = 0;
  QueryContext* query = nullptr;
  StringHeap* strings = nullptr;
  // EXPLAIN ANALYZE only: this worker's count of the rows each counted operator produced
  // (QueryProgram::counted_operators), bumped by generated code without atomics.
  uint64_t* row_counts = nullptr;
  // A prepared statement's $n values (runtime/parameter_slot.h); nullptr without parameters.
  const ParameterSlot* parameters = nullptr;
};

class QueryContext {
 public:
  // `cancel` (optional): the statement's cancel flag (runtime/cancellation.h).
  // `parameters` (optional): the $n values every worker's generated code reads.
  explicit QueryContext(uint32_t worker_count, const std::atomic<bool>* cancel = nullptr,
                        const ParameterSlot* parameters = nullptr);

  // Ready for another run of its query (a prepared statement's kept state,
  // engine/exec/query_run.h): no failure, empty string heaps (their strings are gone), this
  // run's cancel flag and parameters, and the sequence session of the calling thread.
  void restart(const std::atomic<bool>* cancel, const ParameterSlot* parameters);

  uint32_t worker_count() const { return static_cast<uint32_t>(workers_.size()); }
  WorkerContext& worker(uint32_t index) { return workers_[index]; }

  // First error wins; later ones are dropped. Safe from any thread.
  void fail(const std::string& message);
  bool failed() const { return failed_.load(std::memory_order_relaxed); }
  std::string error_message() const;

  // Whether the statement was canceled; the first call that sees it records the failure
  // (kCanceledMessage). Safe from any thread.
  bool check_canceled();
  const std::atomic<bool>* cancel_flag() const { return cancel_; }

  // The sequence session of the statement that created this context (nextval, currval):
  // SequenceSession::current() on the creating thread; nullptr outside a connection.
  SequenceSession* sequences() const { return sequences_; }

  // The string heaps, shared so that a result can keep them alive after the query.
  std::shared_ptr<std::vector<std::unique_ptr<StringHeap>>> string_heaps() const { return heaps_; }

 private:
  std::vector<WorkerContext> workers_;
  std::shared_ptr<std::vector<std::unique_ptr<StringHeap>>> heaps_;
  const std::atomic<bool>* cancel_;
  SequenceSession* sequences_ = SequenceSession::current();
  std::atomic<bool> failed_{false};
  mutable std::mutex mutex_;
  std::string message_;
};

}  // namespace floe
