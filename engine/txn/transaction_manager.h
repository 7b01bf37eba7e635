// Hands out transactions and their timestamps (Neumann, Mühlbauer & Kemper, SIGMOD 2015,
// §2): a transaction starts with the newest commit timestamp as its snapshot and a fresh
// transaction id (>= 2^63), and commits by taking the next commit timestamp and stamping its
// undo entries with it. Committed undo buffers stay until no running transaction started
// before their commit, then garbage collection unlinks them from the version chains.
// Commit, abort and collection run under this manager's mutex, beside read-only statements of
// other connections: collection cuts chains with atomic stores and retires what it cut
// through the epochs (storage/epoch_manager.h), so a reader walking a chain never follows
// freed memory. Collection also changes chain heads a writer installs: it runs only while its
// thread holds the writer lock (a writer's commit) or can take it (a reader's commit, which
// otherwise leaves the work to the next).
#pragma once

#include <cstdint>
#include <deque>
#include <map>
#include <memory>
#include <mutex>

#include "engine/txn/transaction.h"

namespace floe {

class TransactionManager {
 public:
  std::unique_ptr<Transaction> begin(IsolationLevel isolation = kDefaultIsolation);
  // Publishes the transaction's changes: from now on every new snapshot sees them. A
  // serializable transaction is validated first (serializable_validation.h); when that
  // fails, it is rolled back and SerializationFailure is thrown.
  void commit(std::unique_ptr<Transaction> transaction);
  // Rolls every change of the transaction back.
  void abort(std::unique_ptr<Transaction> transaction);

  // Transactions committed whose undo buffers are still kept (for tests).
  size_t uncollected() const;
  // Garbage collection now, waiting for the writer lock (a commit's collection only tries
  // it): for statements that hold the catalog lock alone, so that no writer runs, before they
  // freeze chunks (which keeps rows with version chains hot).
  void collect_now();

  // What lets reading statements run beside the one writing statement
  // (engine/api/statement_lock.h): the latch readers share (reader_latch.h), handed to every
  // transaction, and the writer lock, held by a writing statement while it runs.
  ReaderLatch& readers() { return readers_; }
  class WriterLock {
   public:
    explicit WriterLock(TransactionManager& manager);
    ~WriterLock();
    WriterLock(const WriterLock&) = delete;
    WriterLock& operator=(const WriterLock&) = delete;

   private:
    TransactionManager& manager_;
    const TransactionManager* previous_;
  };

 private:
  // Whether the transaction may commit: always unless serializable, wrote and read.
  bool validates(const Transaction& transaction) const;
  void end(const Transaction& transaction);
  void collect_garbage();
  // Under mutex_ and the writer lock.
  void collect_committed();
  // Whether this thread holds the writer lock.
  bool writing() const;

  ReaderLatch readers_;
  std::mutex writer_;

  mutable std::mutex mutex_;
  uint64_t last_commit_ = 0;
  uint64_t last_id_ = kTransactionIdBase;
  std::map<uint64_t, uint64_t> active_;                 // id -> start timestamp
  std::deque<std::unique_ptr<Transaction>> committed_;  // in commit order, not yet collected
};

}  // namespace floe
