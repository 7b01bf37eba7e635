// A connection's transaction state: outside a block every statement runs in a transaction of
// its own; BEGIN opens a block whose transaction the following statements share until COMMIT
// or ROLLBACK. After an error inside a block, the block is aborted (PostgreSQL's rules): its
// changes were taken back and only ROLLBACK (or ROLLBACK TO a savepoint) is accepted.
#pragma once

#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "engine/txn/transaction.h"

namespace floe {

struct TransactionBlock {
  std::unique_ptr<Transaction> open;  // inside BEGIN ... COMMIT / ROLLBACK
  bool aborted = false;
  // SAVEPOINT name -> the undo buffer's mark, oldest first.
  std::vector<std::pair<std::string, size_t>> savepoints;
  // The level new transactions of the connection get (SET default_transaction_isolation).
  IsolationLevel default_isolation = kDefaultIsolation;
  // Whether DDL ran in the block: only then can a rollback change the catalog back, which
  // invalidates prepared statements (Database::schema_version).
  bool changed_schema = false;

  // After COMMIT or ROLLBACK (the session's default stays).
  void close() {
    open.reset();
    aborted = false;
    changed_schema = false;
    savepoints.clear();
  }
};

}  // namespace floe
