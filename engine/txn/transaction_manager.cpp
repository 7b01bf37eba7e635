#include "engine/txn/transaction_manager.h"

#include <algorithm>
#include <limits>

namespace floe {

std::unique_ptr<Transaction> TransactionManager::begin() {
  std::lock_guard lock(mutex_);
  auto transaction = std::make_unique<Transaction>(++last_id_, last_commit_);
  active_.emplace(transaction->id(), last_commit_);
  return transaction;
}

void TransactionManager::end(const Transaction& transaction) {
  active_.erase(transaction.id());
}

void TransactionManager::commit(std::unique_ptr<Transaction> transaction) {
  std::lock_guard lock(mutex_);
  end(*transaction);
  if (transaction->mark() > 0) {
    transaction->publish(++last_commit_);
    committed_.push_back(std::move(transaction));
  }
  collect_garbage();
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
  // A commit is visible to every running transaction once all of them started after it.
  uint64_t oldest_start = std::numeric_limits<uint64_t>::max();
  for (const auto& [id, start] : active_) oldest_start = std::min(oldest_start, start);
  while (!committed_.empty() && committed_.front()->commit_timestamp() <= oldest_start) {
    committed_.front()->collect();
    committed_.pop_front();
  }
}

}  // namespace floe
