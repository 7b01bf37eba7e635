// How a statement holds its database (issue 10, "Several connections on one database work
// concurrently"). Three kinds of statements:
//  - readers (a SELECT, SHOW or EXPLAIN of those, a prepared SELECT, the record path's
//    lookups, scans and reads) run beside each other and beside the writer: they share the
//    catalog lock and the reader latch (engine/txn/reader_latch.h);
//  - writers (DML, COPY, transaction control, the record path's changes) share the catalog
//    lock and take the writer lock alone (TransactionManager::WriterLock): one at a time,
//    never waiting for a reader except to roll back;
//  - the others (DDL, VACUUM, CALL, SET, PREPARE) and the background freezer hold the
//    catalog lock alone: nothing runs beside them.
// Every statement pins the epoch (storage/epoch_manager.h) while it runs, so that what garbage
// collection, a growing array or a truncation retires meanwhile stays readable until it ends.
#pragma once

#include <memory>
#include <mutex>
#include <shared_mutex>
#include <string_view>

#include "engine/sql/pg_node.h"
#include "engine/txn/transaction_manager.h"
#include "storage/epoch_manager.h"

namespace floe {

// Ordered by what they exclude: a script of several statements takes the strongest.
enum class StatementAccess { kShared, kWrite, kExclusive };

// The catalog lock, fair to a statement that waits to hold it alone: it holds the turnstile
// while it waits for the others to leave, and new statements pass the turnstile first, so a
// stream of them cannot starve it (std::shared_mutex prefers readers on glibc).
struct StatementMutex {
  std::shared_mutex mutex;
  std::mutex turnstile;
};

class StatementLock {
 public:
  StatementLock(StatementMutex& mutex, TransactionManager& transactions, StatementAccess access);
  StatementLock(StatementLock&&) = default;
  StatementLock& operator=(StatementLock&&) = default;
  // Releases the locks (and the pin) early.
  void unlock();

 private:
  std::shared_lock<std::shared_mutex> catalog_shared_;
  std::unique_lock<std::shared_mutex> catalog_exclusive_;
  std::shared_lock<ReaderLatch> reader_;
  std::unique_ptr<TransactionManager::WriterLock> writer_;  // movable
  EpochManager::Pin pin_;  // after the locks: unpinned before they are released
};

// The access a parsed statement with this text needs: shared for a SELECT without INTO,
// SHOW, and EXPLAIN of those; write for INSERT, UPDATE, DELETE, COPY, transaction control,
// EXECUTE, and a reading statement whose text calls nextval or setval (sequences change; the
// check is on the text, so it errs on the safe side); exclusive for anything else.
StatementAccess statement_access(const PgQuery__Node& node, std::string_view text);

}  // namespace floe
