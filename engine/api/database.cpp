#include "engine/api/database.h"

#include <algorithm>

#include "engine/api/prepared_query.h"
#include "engine/api/query_runner.h"
#include "engine/api/statement_context.h"
#include "engine/exec/background_compile.h"
#include "engine/sql/parser.h"
#include "runtime/cancellation.h"
#include "storage/error.h"

namespace floe {

namespace {

const char* unsupported_statement_name(PgQuery__Node__NodeCase kind) {
  switch (kind) {
    case PG_QUERY__NODE__NODE_CREATE_TABLE_AS_STMT:
      return "CREATE TABLE AS";
    case PG_QUERY__NODE__NODE_TRUNCATE_STMT:
      return "TRUNCATE";
    case PG_QUERY__NODE__NODE_CREATE_SCHEMA_STMT:
      return "CREATE SCHEMA";
    case PG_QUERY__NODE__NODE_CHECK_POINT_STMT:
      return "CHECKPOINT";
    default:
      return "this statement";
  }
}

// ROLLBACK and ROLLBACK TO can take DDL back.
bool rolls_back(const PgQuery__TransactionStmt& control) {
  return control.kind == PG_QUERY__TRANSACTION_STMT_KIND__TRANS_STMT_ROLLBACK ||
         control.kind == PG_QUERY__TRANSACTION_STMT_KIND__TRANS_STMT_ROLLBACK_TO;
}

// The text of one statement of the script (stmt_len 0 = up to the end).
std::string_view statement_text(std::string_view script, const PgQuery__RawStmt& raw) {
  std::string_view rest = script.substr(static_cast<size_t>(raw.stmt_location));
  return raw.stmt_len ? rest.substr(0, static_cast<size_t>(raw.stmt_len)) : rest;
}

// Statements that may change the catalog, which prepared statements depend on.
bool changes_schema(PgQuery__Node__NodeCase kind) {
  switch (kind) {
    case PG_QUERY__NODE__NODE_VIEW_STMT:
    case PG_QUERY__NODE__NODE_CREATE_STMT:
    case PG_QUERY__NODE__NODE_INDEX_STMT:
    case PG_QUERY__NODE__NODE_CREATE_TABLE_AS_STMT:
    case PG_QUERY__NODE__NODE_CREATE_SEQ_STMT:
    case PG_QUERY__NODE__NODE_ALTER_TABLE_STMT:
    case PG_QUERY__NODE__NODE_RENAME_STMT:
    case PG_QUERY__NODE__NODE_DROP_STMT:
    case PG_QUERY__NODE__NODE_TRUNCATE_STMT:
      return true;
    default:
      return false;
  }
}

}  // namespace

Result run_statement(const PgQuery__RawStmt& raw, std::string_view script,
                     StatementContext& context) {
  const PgQuery__Node& node = *raw.stmt;
  if (changes_schema(node.node_case)) {
    context.database.bump_schema_version();
    if (context.block && context.block->open) context.block->changed_schema = true;
  }
  switch (node.node_case) {
    case PG_QUERY__NODE__NODE_VIEW_STMT:
      return run_create_view(*node.view_stmt, statement_text(script, raw), context);
    case PG_QUERY__NODE__NODE_CREATE_STMT:
      return run_create_table(*node.create_stmt, context);
    case PG_QUERY__NODE__NODE_INDEX_STMT:
      return run_create_index(*node.index_stmt, context);
    case PG_QUERY__NODE__NODE_CREATE_TABLE_AS_STMT:
      return run_create_table_as(*node.create_table_as_stmt, context);
    case PG_QUERY__NODE__NODE_CREATE_SEQ_STMT:
      return run_create_sequence(*node.create_seq_stmt, context);
    case PG_QUERY__NODE__NODE_ALTER_TABLE_STMT:
      return run_alter_table(*node.alter_table_stmt, context);
    case PG_QUERY__NODE__NODE_RENAME_STMT:
      return run_rename(*node.rename_stmt, context);
    case PG_QUERY__NODE__NODE_VACUUM_STMT:
      if (node.vacuum_stmt->is_vacuumcmd) return run_vacuum(*node.vacuum_stmt, context);
      return run_analyze(*node.vacuum_stmt, context);
    case PG_QUERY__NODE__NODE_DROP_STMT:
      return run_drop(*node.drop_stmt, context);
    case PG_QUERY__NODE__NODE_TRUNCATE_STMT:
      return run_truncate(*node.truncate_stmt, context);
    case PG_QUERY__NODE__NODE_INSERT_STMT:
      return run_insert(*node.insert_stmt, context);
    case PG_QUERY__NODE__NODE_COPY_STMT:
      return run_copy(*node.copy_stmt, context);
    case PG_QUERY__NODE__NODE_SELECT_STMT:
      return run_select(*node.select_stmt, context);
    case PG_QUERY__NODE__NODE_EXPLAIN_STMT:
      return run_explain(*node.explain_stmt, context);
    case PG_QUERY__NODE__NODE_VARIABLE_SET_STMT:
      return run_set(*node.variable_set_stmt, context);
    case PG_QUERY__NODE__NODE_VARIABLE_SHOW_STMT:
      return run_show(*node.variable_show_stmt, context);
    case PG_QUERY__NODE__NODE_CALL_STMT:
      return run_call(*node.call_stmt, context);
    case PG_QUERY__NODE__NODE_DELETE_STMT:
      return run_delete(*node.delete_stmt, context);
    case PG_QUERY__NODE__NODE_UPDATE_STMT:
      return run_update(*node.update_stmt, context);
    case PG_QUERY__NODE__NODE_PREPARE_STMT:
      return run_prepare(*node.prepare_stmt, statement_text(script, raw), context);
    case PG_QUERY__NODE__NODE_EXECUTE_STMT:
      return run_execute(*node.execute_stmt, context);
    case PG_QUERY__NODE__NODE_DEALLOCATE_STMT:
      return run_deallocate(*node.deallocate_stmt, context);
    default:
      throw NotSupported(unsupported_statement_name(node.node_case), raw.stmt_location);
  }
}

namespace {

// Runs a statement in the block's transaction, or in one of its own. A failure takes the
// statement's changes back (to its mark in the undo buffer) and aborts the block.
// `query`: whether the statement counts as a query that fixes the transaction's isolation
// level (all but SET and SHOW, as in PostgreSQL).
Result run_in_transaction(const std::function<Result(StatementContext&)>& run,
                          StatementContext& context, TransactionBlock& block, bool query) {
  TransactionManager& manager = context.database.transactions();
  std::unique_ptr<Transaction> own;
  if (!block.open) own = manager.begin(block.default_isolation);
  Transaction& transaction = own ? *own : *block.open;
  const size_t mark = transaction.mark();
  context.transaction = &transaction;
  context.block = &block;
  context.options.scan.snapshot = transaction.snapshot();
  WriterScope writer(transaction.id());
  Result result;
  try {
    // A serializable transaction's scans log what they read (SET may change the level).
    context.options.scan.reads = transaction.serializable() ? &transaction.reads() : nullptr;
    result = run(context);
    context.options.scan.reads = nullptr;
    if (query) transaction.note_query();
    if (own) manager.commit(std::move(own));  // a failed validation: rolled back, throws
  } catch (...) {
    context.options.scan.reads = nullptr;
    if (own) {
      transaction.rollback_to(mark);
      manager.abort(std::move(own));
    } else if (block.open) {
      transaction.rollback_to(mark);
      block.aborted = true;
    }
    throw;
  }
  return result;
}

}  // namespace

Result Result::command(std::string tag, uint64_t affected_rows) {
  Result result;
  result.command_tag_ = std::move(tag);
  result.affected_rows_ = affected_rows;
  return result;
}

Result Result::query(QueryOutput output) {
  Result result;
  result.command_tag_ = "SELECT " + std::to_string(output.rows.size());
  result.is_query_ = true;
  result.workers_ = output.workers;
  result.affected_rows_ = output.rows.size();
  result.column_names_ = std::move(output.column_names);
  result.column_types_ = std::move(output.column_types);
  result.rows_ = std::move(output.rows);
  return result;
}

Result Result::returning(QueryOutput output, std::string tag) {
  Result result = query(std::move(output));
  result.command_tag_ = std::move(tag);
  return result;
}

Database::Database(const std::string& path) {
  if (path != ":memory:") throw NotSupported("persistent databases (use \":memory:\")");
}

Connection::~Connection() {
  // Its adaptive queries' code, still compiling after they ended (background_compile.h).
  wait_for_background_compiles();
  if (!block_.open) return;
  auto statements = database_.lock_statements();
  if (block_.changed_schema) database_.bump_schema_version();
  database_.transactions().abort(std::move(block_.open));
}

Result Connection::query(std::string_view sql) {
  canceled_.store(false, std::memory_order_relaxed);
  auto start = std::chrono::steady_clock::now();
  sql::ParseTree tree(sql);
  double parse_ms = elapsed_ms(start);
  // The strongest access any statement of the script needs.
  StatementAccess access = StatementAccess::kShared;
  for (size_t i = 0; i < tree.statement_count(); ++i) {
    const PgQuery__RawStmt& raw = tree.statement(i);
    access = std::max(access, statement_access(*raw.stmt, statement_text(sql, raw)));
  }
  // After DDL in the block, a rollback (also of a failed statement) can change the catalog.
  if (block_.changed_schema && access == StatementAccess::kWrite)
    access = StatementAccess::kExclusive;
  auto statements = database_.lock_statements(access);
  SequenceSession::Scope session(sequences_);
  StatementContext context{database_.catalog(), options_, database_};
  context.prepared = &prepared_;
  Result result;
  std::vector<std::string> notices;  // of all statements, in order
  for (size_t i = 0; i < tree.statement_count(); ++i) {
    options_.cancel = &canceled_;  // (again: RESET ALL resets the options)
    throw_if_canceled(&canceled_);
    const PgQuery__RawStmt& raw = tree.statement(i);
    if (raw.stmt->node_case == PG_QUERY__NODE__NODE_TRANSACTION_STMT) {
      const PgQuery__TransactionStmt& control = *raw.stmt->transaction_stmt;
      if (block_.aborted && !transaction_control_allowed_when_aborted(control))
        throw Error(kAbortedBlock);
      // Undoing DDL changes the catalog back (COMMIT of an aborted block rolls back too).
      if (block_.changed_schema && (rolls_back(control) || block_.aborted))
        database_.bump_schema_version();
      result = run_transaction_control(control, block_, database_.transactions());
    } else {
      if (block_.aborted) throw Error(kAbortedBlock);
      const bool query = raw.stmt->node_case != PG_QUERY__NODE__NODE_VARIABLE_SET_STMT &&
                         raw.stmt->node_case != PG_QUERY__NODE__NODE_VARIABLE_SHOW_STMT;
      result = run_in_transaction(
          [&](StatementContext& statement) { return run_statement(raw, sql, statement); }, context,
          block_, query);
    }
    result.mutable_timings().parse_ms = parse_ms;
    notices.insert(notices.end(), result.notices().begin(), result.notices().end());
  }
  result.notices_ = std::move(notices);
  return result;
}

Result Connection::run_single(const std::function<Result(StatementContext&)>& run,
                              StatementAccess access) {
  canceled_.store(false, std::memory_order_relaxed);
  auto statements = database_.lock_statements(access);
  SequenceSession::Scope session(sequences_);
  StatementContext context{database_.catalog(), options_, database_};
  context.prepared = &prepared_;
  options_.cancel = &canceled_;
  if (block_.aborted) throw Error(kAbortedBlock);
  return run_in_transaction(run, context, block_, true);
}

PreparedStatement Connection::prepare(std::string_view sql) {
  std::shared_ptr<PreparedQuery> query;
  run_single([&](StatementContext& context) {
    query = std::make_shared<PreparedQuery>(std::string(sql), std::vector<SqlType>{}, context);
    return Result::command("PREPARE");
  });
  return PreparedStatement(*this, std::move(query));
}

PreparedStatement::PreparedStatement(Connection& connection, std::shared_ptr<PreparedQuery> query)
    : connection_(&connection), query_(std::move(query)) {}

size_t PreparedStatement::parameter_count() const { return query_->parameter_types().size(); }

const SqlType& PreparedStatement::parameter_type(size_t index) const {
  return query_->parameter_types().at(index);
}

Result PreparedStatement::execute(const std::vector<Value>& parameters) {
  return connection_->run_single(
      [&](StatementContext& context) { return query_->execute(parameters, context); },
      query_->access());
}

}  // namespace floe
