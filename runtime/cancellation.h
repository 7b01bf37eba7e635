// Canceling a running statement (Connection::cancel, Ctrl-C in the shell): a flag that any
// thread, even a signal handler, may set, and that long-running work polls, as PostgreSQL's
// executor polls for a pending query cancel. Compiled pipelines check it between morsels and
// inside loops that can run long within one (hash-chain walks, e.g. of a cross product);
// the runtime's long loops (sort, hash-table build and merge) and COPY and CALL dbgen poll
// it with a CancelPoll.
#pragma once

#include <atomic>
#include <cstdint>

namespace floe {

// PostgreSQL's message for a statement canceled on request.
constexpr const char* kCanceledMessage = "canceling statement due to user request";

static_assert(std::atomic<bool>::is_always_lock_free, "Connection::cancel is async-signal-safe");

// Throws floe::Error(kCanceledMessage) when `flag` (which may be null) is set.
void throw_if_canceled(const std::atomic<bool>* flag);

// Checks a cancel flag every kInterval calls of tick(), cheap enough for a loop body.
class CancelPoll {
 public:
  static constexpr uint32_t kInterval = 4096;

  explicit CancelPoll(const std::atomic<bool>* flag) : flag_(flag) {}
  void tick() {
    if (++count_ % kInterval == 0) throw_if_canceled(flag_);
  }

 private:
  const std::atomic<bool>* flag_;
  uint32_t count_ = 0;
};

}  // namespace floe
