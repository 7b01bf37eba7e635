#include "engine/txn/transaction_manager.h"

#include <algorithm>
#include <limits>

#include "engine/txn/serializable_validation.h"
#include "storage/error.h"

namespace floe {

namespace {
// The manager whose writer lock this thread holds.
thread_local const TransactionManager* writing_in = nullptr;
}  // namespace

TransactionManager::WriterLock::WriterLock(TransactionManager& manager)
    : manager_(manager), previous_(writing_in) {
  manager.writer_.lock();
  writing_in = &manager;
}

TransactionManager::WriterLock::~WriterLock() {
  writing_in = previous_;
  manager_.writer_.unlock();
}

bool TransactionManager::writing() const { return writing_in == this; }

std::unique_ptr<Transaction> TransactionManager::begin(IsolationLevel isolation) {
  std::lock_guard lock(mutex_);
  auto transaction = std::make_unique<Transaction>(++last_id_, last_commit_, &readers_);
  transaction->set_isolation(isolation);
  active_.emplace(transaction->id(), last_commit_);
  return transaction;
}

void TransactionManager::end(const Transaction& transaction) {
  active_.erase(transaction.id());
}

bool TransactionManager::validates(const Transaction& transaction) const {
  if (!transaction.serializable() || transaction.mark() == 0 || transaction.reads().empty())
    return true;
  // Those committed since it started are all still kept: it is running.
  for (const auto& committed : committed_)
    if (committed->commit_timestamp() > transaction.snapshot().start &&
        reads_changes_of(transaction.reads(), *committed))
      return false;
  return true;
}

void TransactionManager::commit(std::unique_ptr<Transaction> transaction) {
  {
    std::lock_guard lock(mutex_);
    if (validates(*transaction)) {
      end(*transaction);
      if (transaction->mark() > 0) {
        transaction->publish(++last_commit_);
        committed_.push_back(std::move(transaction));
      }
      collect_garbage();
      return;
    }
  }
  abort(std::move(transaction));
  throw SerializationFailure(SerializationFailure::kReadWriteDependencies);
}

void TransactionManager::abort(std::unique_ptr<Transaction> transaction) {
  transaction->rollback_to(0);
  std::lock_guard lock(mutex_);
  end(*transaction);
  collect_garbage();
}

size_t TransactionManager::uncollected() const {
  std::lock_guard lock(mutex_);
  return committed_.size();
}

void TransactionManager::collect_garbage() {
  // Collection changes chain heads: never beside the writer (try_lock never waits, so taking
  // it under mutex_ cannot deadlock with a writer that waits for mutex_).
  std::unique_lock<std::mutex> writer;
  if (!writing()) {
    writer = std::unique_lock(writer_, std::try_to_lock);
    if (!writer.owns_lock()) return;
  }
  collect_committed();
}

void TransactionManager::collect_now() {
  // The writer lock first, as a writing statement takes it before it commits under mutex_.
  std::unique_lock<std::mutex> writer;
  if (!writing()) writer = std::unique_lock(writer_);
  std::lock_guard lock(mutex_);
  collect_committed();
}

void TransactionManager::collect_committed() {
  // A commit is visible to every running transaction once all of them started after it.
  uint64_t oldest_start = std::numeric_limits<uint64_t>::max();
  for (const auto& [id, start] : active_) oldest_start = std::min(oldest_start, start);
  while (!committed_.empty() && committed_.front()->commit_timestamp() <= oldest_start) {
    committed_.front()->collect();
    committed_.pop_front();
  }
}

}  // namespace floe
