// How a statement holds its database (issue 10, "Several connections on one database work
// concurrently"): read-only statements share the statement lock, so they run beside each
// other; every other statement (DML, DDL, VACUUM, CALL, SET, transaction control) and the
// background freezer hold it alone. Either way the statement pins the epoch
// (storage/epoch_manager.h) while it runs, so that what garbage collection or a growing
// array retires meanwhile stays readable until it ends.
#pragma once

#include <mutex>
#include <shared_mutex>
#include <string_view>

#include "engine/sql/pg_node.h"
#include "storage/epoch_manager.h"

namespace floe {

enum class StatementAccess { kShared, kExclusive };

// The lock itself, fair to writers: a writer holds the turnstile while it waits for the
// readers to leave, and new readers pass the turnstile first, so a stream of readers cannot
// starve it (std::shared_mutex prefers readers on glibc).
struct StatementMutex {
  std::shared_mutex mutex;
  std::mutex turnstile;
};

class StatementLock {
 public:
  StatementLock(StatementMutex& mutex, StatementAccess access);
  StatementLock(StatementLock&&) = default;
  StatementLock& operator=(StatementLock&&) = default;
  // Releases the lock (and the pin) early.
  void unlock();

 private:
  std::shared_lock<std::shared_mutex> shared_;
  std::unique_lock<std::shared_mutex> exclusive_;
  EpochManager::Pin pin_;  // after the locks: unpinned before they are released
};

// The access a parsed statement with this text needs: shared for a SELECT without INTO,
// SHOW, and EXPLAIN of those; exclusive for anything else, and for any statement whose text
// calls nextval or setval (sequences change; the check is on the text, so it errs on the safe
// side).
StatementAccess statement_access(const PgQuery__Node& node, std::string_view text);

}  // namespace floe
