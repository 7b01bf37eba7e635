#include "runtime/query_context.h"

#include "runtime/cancellation.h"

namespace floe {

QueryContext::QueryContext(uint32_t worker_count, const std::atomic<bool>* cancel,
                           const ParameterSlot* parameters)
    : heaps_(std::make_shared<std::vector<std::unique_ptr<StringHeap>>>()), cancel_(cancel) {
  workers_.resize(worker_count);
  for (uint32_t i = 0; i < worker_count; ++i) {
    heaps_->push_back(std::make_unique<StringHeap>());
    workers_[i] = WorkerContext{i, this, heaps_->back().get(), nullptr, parameters};
  }
}

void QueryContext::restart(const std::atomic<bool>* cancel, const ParameterSlot* parameters) {
  cancel_ = cancel;
  sequences_ = SequenceSession::current();
  failed_.store(false, std::memory_order_relaxed);
  message_.clear();
  for (auto& heap : *heaps_) heap->clear();
  for (WorkerContext& worker : workers_) {
    worker.parameters = parameters;
    worker.row_counts = nullptr;
  }
}

void QueryContext::fail(const std::string& message) {
  std::lock_guard lock(mutex_);
  if (!failed_.load(std::memory_order_relaxed)) {
    message_ = message;
    failed_.store(true, std::memory_order_relaxed);
  }
}

bool QueryContext::check_canceled() {
  if (!cancel_ || !cancel_->load(std::memory_order_relaxed)) return false;
  fail(kCanceledMessage);
  return true;
}

std::string QueryContext::error_message() const {
  std::lock_guard lock(mutex_);
  return message_;
}

}  // namespace floe
