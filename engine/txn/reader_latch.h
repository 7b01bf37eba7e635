// Readers beside the writer (issue 10): every reading statement holds its database's reader
// latch shared while it runs. The one writing statement at a time (engine/api/statement_lock.h)
// never waits for readers, except for what a reader must not see half-done:
//  - changing a row's values in place: only while no reader runs (a try-lock); otherwise the
//    update moves the row (a delete and an insert at the table's end, as for a frozen row),
//  - freezing chunks after a bulk load: skipped while readers run (the freezer or VACUUM
//    freezes them later),
//  - rolling back: waits for the readers, so that before-images are written back, appended
//    rows taken back and undo entries freed with nobody reading them.
// Fair to the rollback: it holds the turnstile while it waits, so new readers queue behind it
// (std::shared_mutex prefers readers on glibc and a stream of them would starve it).
#pragma once

#include <mutex>
#include <shared_mutex>

namespace floe {

class ReaderLatch {
 public:
  void lock_shared() {
    { std::lock_guard pass(turnstile_); }
    mutex_.lock_shared();
  }
  void unlock_shared() { mutex_.unlock_shared(); }
  void lock() {
    std::lock_guard wait(turnstile_);
    mutex_.lock();
  }
  bool try_lock() { return mutex_.try_lock(); }
  void unlock() { mutex_.unlock(); }

 private:
  std::shared_mutex mutex_;
  std::mutex turnstile_;
};

}  // namespace floe
