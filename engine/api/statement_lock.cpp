#include "engine/api/statement_lock.h"

#include <algorithm>
#include <cctype>
#include <string>

namespace floe {

StatementLock::StatementLock(StatementMutex& mutex, TransactionManager& transactions,
                             StatementAccess access) {
  std::unique_lock turnstile(mutex.turnstile);
  if (access == StatementAccess::kExclusive) {
    catalog_exclusive_ = std::unique_lock(mutex.mutex);
  } else {
    turnstile.unlock();
    catalog_shared_ = std::shared_lock(mutex.mutex);
    if (access == StatementAccess::kShared)
      reader_ = std::shared_lock(transactions.readers());
    else
      writer_ = std::make_unique<TransactionManager::WriterLock>(transactions);
  }
  pin_ = epochs().pin();
}

void StatementLock::unlock() {
  pin_ = EpochManager::Pin();
  if (reader_.owns_lock()) reader_.unlock();
  writer_.reset();
  if (catalog_shared_.owns_lock()) catalog_shared_.unlock();
  if (catalog_exclusive_.owns_lock()) catalog_exclusive_.unlock();
}

namespace {

// Whether the text names a function that changes a sequence.
bool calls_sequence_change(std::string_view text) {
  std::string lower(text);
  std::transform(lower.begin(), lower.end(), lower.begin(),
                 [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  return lower.find("nextval") != std::string::npos || lower.find("setval") != std::string::npos;
}

bool reads_only(const PgQuery__Node& node) {
  switch (node.node_case) {
    case PG_QUERY__NODE__NODE_SELECT_STMT:
      return !node.select_stmt->into_clause;
    case PG_QUERY__NODE__NODE_VARIABLE_SHOW_STMT:
      return true;
    case PG_QUERY__NODE__NODE_EXPLAIN_STMT:
      return reads_only(*node.explain_stmt->query);
    default:
      return false;
  }
}

bool writes_rows(const PgQuery__Node& node) {
  switch (node.node_case) {
    case PG_QUERY__NODE__NODE_INSERT_STMT:
    case PG_QUERY__NODE__NODE_UPDATE_STMT:
    case PG_QUERY__NODE__NODE_DELETE_STMT:
    case PG_QUERY__NODE__NODE_COPY_STMT:
    case PG_QUERY__NODE__NODE_TRANSACTION_STMT:
    case PG_QUERY__NODE__NODE_EXECUTE_STMT:
      return true;
    case PG_QUERY__NODE__NODE_EXPLAIN_STMT:
      return writes_rows(*node.explain_stmt->query);
    default:
      return false;
  }
}

}  // namespace

StatementAccess statement_access(const PgQuery__Node& node, std::string_view text) {
  if (reads_only(node)) {
    return calls_sequence_change(text) ? StatementAccess::kWrite : StatementAccess::kShared;
  }
  return writes_rows(node) ? StatementAccess::kWrite : StatementAccess::kExclusive;
}

}  // namespace floe
