// The embedded API: Database, Connection, Result (DESIGN.md "Embedded API").
#pragma once

#include <atomic>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <shared_mutex>
#include <string>
#include <string_view>
#include <vector>

#include "engine/api/floe.h"
#include "engine/api/statement_lock.h"
#include "engine/exec/query_executor.h"
#include "engine/txn/transaction_block.h"
#include "engine/txn/transaction_manager.h"
#include "storage/catalog.h"
#include "storage/chunk_freezer.h"
#include "storage/sequence_session.h"
#include "storage/value.h"

namespace floe {

// A statement's time per phase: the public API's Timings (engine/api/floe.h).
using PhaseTimings = api::Timings;

class Result {
 public:
  friend class Connection;  // gathers the notices of a script's statements

  // Statements that return no rows carry a command tag such as "CREATE TABLE" or "INSERT 0 5".
  const std::string& command_tag() const { return command_tag_; }
  // Whether this is a query result: rows of zero or more columns (SELECT FROM t has rows
  // without columns), as opposed to a command's.
  bool has_rows() const { return is_query_; }

  size_t column_count() const { return column_names_.size(); }
  const std::string& column_name(size_t i) const { return column_names_[i]; }
  const SqlType& column_type(size_t i) const { return column_types_[i]; }
  size_t row_count() const { return rows_.size(); }
  const Value& value(size_t row, size_t column) const { return rows_[row][column]; }
  const std::vector<std::vector<Value>>& rows() const { return rows_; }
  uint64_t affected_rows() const { return affected_rows_; }
  const PhaseTimings& timings() const { return timings_; }
  // A query's: the workers (threads) it ran on; 0 for commands.
  uint32_t workers() const { return workers_; }
  // Messages for the user that are not errors, like PostgreSQL's NOTICEs (e.g. a SET whose
  // value is capped), of every statement Connection::query ran.
  const std::vector<std::string>& notices() const { return notices_; }
  void add_notice(std::string notice) { notices_.push_back(std::move(notice)); }

  // Construction by the statement implementations.
  static Result command(std::string tag, uint64_t affected_rows = 0);
  // A query result: its columns and rows; command tag "SELECT <n>".
  static Result query(QueryOutput output);
  // The rows of INSERT, UPDATE or DELETE ... RETURNING, with the statement's command tag.
  static Result returning(QueryOutput output, std::string tag);
  PhaseTimings& mutable_timings() { return timings_; }

 private:
  std::string command_tag_;
  bool is_query_ = false;
  std::vector<std::string> column_names_;
  std::vector<SqlType> column_types_;
  std::vector<std::vector<Value>> rows_;
  uint64_t affected_rows_ = 0;
  uint32_t workers_ = 0;
  std::vector<std::string> notices_;
  PhaseTimings timings_;
};

class Database {
 public:
  // ":memory:" is the only path until durability lands.
  explicit Database(const std::string& path = ":memory:");
  Catalog& catalog() { return catalog_; }
  ChunkFreezer& freezer() { return freezer_; }
  TransactionManager& transactions() { return transactions_; }

  // Held by every statement while it runs (engine/api/statement_lock.h): readers run beside
  // each other and beside one writer; the others and the background freezer run alone. Code
  // that changes the catalog's tables directly (a bulk loader) takes it exclusively too.
  StatementLock lock_statements(StatementAccess access = StatementAccess::kExclusive) {
    return StatementLock(statement_mutex_, transactions_, access);
  }

  // Bumped by every statement that may change the catalog (DDL, and rollbacks, which can take
  // DDL back): a prepared statement whose version is older prepares itself again.
  uint64_t schema_version() const { return schema_version_.load(std::memory_order_relaxed); }
  void bump_schema_version() { schema_version_.fetch_add(1, std::memory_order_relaxed); }

 private:
  std::atomic<uint64_t> schema_version_{0};
  Catalog catalog_;
  TransactionManager transactions_;
  StatementMutex statement_mutex_;
  ChunkFreezer freezer_{catalog_, statement_mutex_.mutex};  // last: stops first
};

class PreparedQuery;
class PreparedStatement;
struct StatementContext;
class TransactionScope;

class Connection {
 public:
  explicit Connection(Database& database) : database_(database), sequences_(database.catalog()) {}
  // Rolls back the transaction block left open.
  ~Connection();
  Connection(const Connection&) = delete;
  Connection& operator=(const Connection&) = delete;

  // Runs every statement in `sql` in order and returns the last one's result. Throws
  // floe::Error (with the statement position when known). A failed statement leaves no
  // partial effects. Outside a transaction block (BEGIN ... COMMIT) each statement is a
  // transaction of its own; a write-write conflict throws SerializationFailure.
  Result query(std::string_view sql);

  // Cancels the statement running on this connection. Safe from any thread and from a
  // signal handler (it only sets an atomic flag). The statement stops within about 100 ms
  // (checks run between morsels, inside long loops, sorts, hash-table builds, COPY and CALL
  // dbgen) and query() throws floe::Error("canceling statement due to user request"),
  // leaving the connection and the data as they were before the statement; the rest of the
  // script does not run. A cancel while no statement runs is forgotten when the next starts.
  void cancel() { canceled_.store(true, std::memory_order_relaxed); }

  // Prepares one statement (SELECT, INSERT, UPDATE or DELETE) with $n parameters: bound,
  // planned and compiled once (prepared_query.h), executed by PreparedStatement::execute.
  PreparedStatement prepare(std::string_view sql);

  // Opens a transaction block (as BEGIN) held by the returned object, which also carries the
  // record-level path (engine/api/record_transaction.h). Throws when a block is open.
  TransactionScope begin();

  ExecutionOptions& options() { return options_; }
  // Whether a transaction block is open (BEGIN ran, COMMIT or ROLLBACK did not yet).
  bool in_transaction_block() const { return block_.open != nullptr; }

 private:
  friend class PreparedStatement;
  friend class TransactionScope;
  // Runs `run` as one statement: in the open block's transaction or one of its own, under the
  // statement lock (taken with `access`), with the statement context (Connection::query's
  // rules).
  Result run_single(const std::function<Result(StatementContext&)>& run,
                    StatementAccess access = StatementAccess::kExclusive);

  Database& database_;
  TransactionBlock block_;
  std::map<std::string, std::shared_ptr<PreparedQuery>> prepared_;  // PREPARE name
  ExecutionOptions options_;
  SequenceSession sequences_;  // currval and lastval of this session
  std::atomic<bool> canceled_{false};
};

// A statement prepared through the API (Connection::prepare). It belongs to its connection,
// which must outlive it, and like it is used by one thread at a time: a compiled SELECT's
// executions reuse the previous run's context and state (engine/exec/query_run.h).
// Executions run like Connection::query's statements (in the open transaction block, or as a
// transaction of their own).
class PreparedStatement {
 public:
  PreparedStatement(Connection& connection, std::shared_ptr<PreparedQuery> query);
  // The $n count and types (an undeclared parameter of INSERT/UPDATE/DELETE: unknown).
  size_t parameter_count() const;
  const SqlType& parameter_type(size_t index) const;
  // Runs it with one value per parameter, each converted to its parameter's type.
  Result execute(const std::vector<Value>& parameters = {});

 private:
  Connection* connection_;
  std::shared_ptr<PreparedQuery> query_;
};

}  // namespace floe
