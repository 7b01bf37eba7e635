#include "runtime/query_context.h"

namespace floe {

QueryContext::QueryContext(uint32_t worker_count)
    : heaps_(std::make_shared<std::vector<std::unique_ptr<StringHeap>>>()) {
  workers_.resize(worker_count);
  for (uint32_t i = 0; i < worker_count; ++i) {
    heaps_->push_back(std::make_unique<StringHeap>());
    workers_[i] = WorkerContext{i, this, heaps_->back().get()};
  }
}

void QueryContext::fail(const std::string& message) {
  std::lock_guard lock(mutex_);
  if (!failed_.load(std::memory_order_relaxed)) {
    message_ = message;
    failed_.store(true, std::memory_order_relaxed);
  }
}

std::string QueryContext::error_message() const {
  std::lock_guard lock(mutex_);
  return message_;
}

}  // namespace floe
