#include "engine/api/statement_lock.h"

#include <algorithm>
#include <cctype>
#include <string>

namespace floe {

StatementLock::StatementLock(StatementMutex& mutex, StatementAccess access) {
  std::unique_lock turnstile(mutex.turnstile);
  if (access == StatementAccess::kShared) {
    turnstile.unlock();
    shared_ = std::shared_lock(mutex.mutex);
  } else {
    exclusive_ = std::unique_lock(mutex.mutex);
  }
  pin_ = epochs().pin();
}

void StatementLock::unlock() {
  pin_ = EpochManager::Pin();
  if (shared_.owns_lock()) shared_.unlock();
  if (exclusive_.owns_lock()) exclusive_.unlock();
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

}  // namespace

StatementAccess statement_access(const PgQuery__Node& node, std::string_view text) {
  return reads_only(node) && !calls_sequence_change(text) ? StatementAccess::kShared
                                                          : StatementAccess::kExclusive;
}

}  // namespace floe
