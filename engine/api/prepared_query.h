// Prepared statements (PREPARE / EXECUTE / DEALLOCATE, Connection::prepare): a statement with
// $n parameters, bound, planned and compiled once, then executed many times.
//
// A SELECT is compiled once: its $n are kParameter expressions that the generated code reads
// from the run's parameter slots (runtime/parameter_slot.h), and the scans re-derive the
// restrictions and index key ranges that compare with parameters from each run's values
// (engine/plan/parameter_restrictions.h), as PostgreSQL's executor evaluates an index scan's
// run-time keys. Nothing is planned or compiled again while the catalog stays the same; after
// DDL the statement is prepared again on its next execution, and PostgreSQL's "cached plan
// must not change result type" is raised when that changes its result columns.
//
// INSERT, UPDATE and DELETE are bound again at each execution with the parameters as
// constants (the same binder, the values in place of the slots), which costs little: their
// VALUES, SET and RETURNING lists are evaluated per row without generated code. The query
// inside them (the target rows of UPDATE and DELETE with their new values, the rows of
// INSERT ... SELECT) is planned and compiled once with the parameters as slots, like a
// SELECT, and kept with the statement (StatementQueryCache, compiled_plan.h). A SELECT with
// subqueries evaluated at planning time or WITH RECURSIVE is bound and planned at each
// execution with the parameters as constants.
#pragma once

#include <map>
#include <memory>
#include <string>
#include <vector>

#include "engine/api/statement_context.h"

namespace floe {

namespace sql {
class ParseTree;
}
struct CompiledPlan;
class StatementQueryCache;

class PreparedQuery {
 public:
  // Parses `sql` (one statement) and prepares it; `declared` are PREPARE's parameter types.
  // `context`: the connection's (its catalog and options, which a compiled plan keeps).
  PreparedQuery(std::string sql, std::vector<SqlType> declared, StatementContext& context);
  ~PreparedQuery();

  // The parameter types: declared, deduced from their use, else text. For a statement bound
  // per execution, undeclared parameters stay unknown (their values are typed by use).
  const std::vector<SqlType>& parameter_types() const { return types_; }
  // Runs it with `arguments`, one per parameter, converted to the parameter types (PostgreSQL's
  // "wrong number of parameters" when the count differs). Runs in context.transaction.
  Result execute(const std::vector<Value>& arguments, StatementContext& context);
  // PostgreSQL's "wrong number of parameters for prepared statement" unless `given` fits.
  void check_count(size_t given) const;
  // How its executions hold the statement lock (statement_lock.h).
  StatementAccess access() const { return access_; }
  // EXECUTE's error text names the statement: "prepared statement \"p\"" (empty: unnamed).
  std::string name;

 private:
  void prepare(StatementContext& context);
  std::vector<Value> convert(const std::vector<Value>& arguments) const;

  std::string sql_;
  std::unique_ptr<sql::ParseTree> tree_;
  std::vector<SqlType> declared_;
  std::vector<SqlType> types_;
  std::unique_ptr<CompiledPlan> compiled_;  // a compiled-once SELECT; null: bound per execution
  std::unique_ptr<StatementQueryCache> statement_query_;  // INSERT, UPDATE, DELETE
  std::vector<SqlType> result_types_;                     // of the first preparation (a SELECT's)
  uint64_t schema_version_ = 0;
  StatementAccess access_ = StatementAccess::kExclusive;
};

// PREPARE / EXECUTE / DEALLOCATE (prepared_query.cpp).
Result run_prepare(const PgQuery__PrepareStmt& stmt, std::string_view statement_text,
                   StatementContext& context);
Result run_execute(const PgQuery__ExecuteStmt& stmt, StatementContext& context);
Result run_deallocate(const PgQuery__DeallocateStmt& stmt, StatementContext& context);

}  // namespace floe
