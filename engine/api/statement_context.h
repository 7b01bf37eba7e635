// What every statement implementation needs: the catalog, the connection's settings and the
// database's (SET freeze_policy).
#pragma once

#include <map>
#include <memory>
#include <string>

#include "engine/api/database.h"
#include "engine/sql/pg_node.h"

namespace floe {

class Transaction;
class PreparedQuery;
class StatementQueryCache;
using PreparedStatements = std::map<std::string, std::shared_ptr<PreparedQuery>>;

// PostgreSQL's error for a statement in an aborted transaction block.
inline constexpr const char* kAbortedBlock =
    "current transaction is aborted, commands ignored until end of transaction block";

struct StatementContext {
  Catalog& catalog;
  ExecutionOptions& options;
  Database& database;
  // The transaction the statement runs in (engine/txn/): its own, or the connection's open
  // one. Row changes go through it.
  Transaction* transaction = nullptr;
  // The connection's named prepared statements (PREPARE, EXECUTE, DEALLOCATE).
  PreparedStatements* prepared = nullptr;
  // The compiled query of the prepared INSERT, UPDATE or DELETE executing (compiled_plan.h).
  StatementQueryCache* query_cache = nullptr;
  // The connection's transaction state (SET TRANSACTION, SET default_transaction_isolation).
  TransactionBlock* block = nullptr;
};

// Runs one statement of `script` (database.cpp's dispatch; EXECUTE runs a prepared one).
Result run_statement(const PgQuery__RawStmt& raw, std::string_view script,
                     StatementContext& context);

// The tables a VACUUM or ANALYZE statement names (all tables when it names none). Throws
// floe::Error for a missing table, NotSupported for a column list.
std::vector<Table*> vacuum_tables(const PgQuery__VacuumStmt& stmt, Catalog& catalog,
                                  const char* command);

// One function per statement kind (engine/api/<kind>_statement.cpp).
Result run_create_table(const PgQuery__CreateStmt& stmt, StatementContext& context);
Result run_create_table_as(const PgQuery__CreateTableAsStmt& stmt, StatementContext& context);
// SELECT ... INTO: `query` is the statement without its INTO clause.
Result run_create_table_as(const PgQuery__SelectStmt& query, const PgQuery__IntoClause& into,
                           bool if_not_exists, StatementContext& context);
Result run_create_index(const PgQuery__IndexStmt& stmt, StatementContext& context);
Result run_create_sequence(const PgQuery__CreateSeqStmt& stmt, StatementContext& context);
Result run_alter_table(const PgQuery__AlterTableStmt& stmt, StatementContext& context);
Result run_rename(const PgQuery__RenameStmt& stmt, StatementContext& context);
Result run_create_view(const PgQuery__ViewStmt& stmt, std::string_view statement_text,
                       StatementContext& context);
Result run_analyze(const PgQuery__VacuumStmt& stmt, StatementContext& context);
Result run_vacuum(const PgQuery__VacuumStmt& stmt, StatementContext& context);
Result run_drop(const PgQuery__DropStmt& stmt, StatementContext& context);
Result run_truncate(const PgQuery__TruncateStmt& stmt, StatementContext& context);
Result run_insert(const PgQuery__InsertStmt& stmt, StatementContext& context);
Result run_copy(const PgQuery__CopyStmt& stmt, StatementContext& context);
Result run_select(const PgQuery__SelectStmt& stmt, StatementContext& context);
Result run_explain(const PgQuery__ExplainStmt& stmt, StatementContext& context);
Result run_set(const PgQuery__VariableSetStmt& stmt, StatementContext& context);
Result run_show(const PgQuery__VariableShowStmt& stmt, StatementContext& context);
Result run_call(const PgQuery__CallStmt& stmt, StatementContext& context);
// Transaction control (transaction_statement.cpp): the connection's block changes.
Result run_transaction_control(const PgQuery__TransactionStmt& stmt, TransactionBlock& block,
                               TransactionManager& manager);
// Applies the transaction modes of BEGIN, SET TRANSACTION or SET SESSION CHARACTERISTICS AS
// TRANSACTION (DefElem nodes: ISOLATION LEVEL, READ WRITE, [NOT] DEFERRABLE) to `isolation`.
// READ ONLY is not supported.
void apply_transaction_modes(PgQuery__Node* const* modes, size_t count, IsolationLevel& isolation);
// Whether the statement may run in an aborted block (COMMIT, ROLLBACK, ROLLBACK TO).
bool transaction_control_allowed_when_aborted(const PgQuery__TransactionStmt& stmt);
Result run_delete(const PgQuery__DeleteStmt& stmt, StatementContext& context);
Result run_update(const PgQuery__UpdateStmt& stmt, StatementContext& context);

// INSERT's check that an expression of type `source` can be assigned to `column`
// (insert_statement.cpp); UPDATE's SET uses it too.
void check_assignable(const SqlType& source, const ColumnDef& column, int position);

}  // namespace floe
