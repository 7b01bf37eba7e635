// SELECT: bind → substitute subqueries → optimize → pipelines → compiled execution.
#include "engine/api/query_runner.h"
#include "engine/api/statement_context.h"
#include "engine/sql/select_binder.h"

namespace floe {

Result run_select(const PgQuery__SelectStmt& stmt, StatementContext& context) {
  if (stmt.into_clause) {
    PgQuery__SelectStmt query = stmt;
    query.into_clause = nullptr;
    return run_create_table_as(query, *stmt.into_clause, false, context);
  }
  PhaseTimings timings;
  auto start = std::chrono::steady_clock::now();
  plan::LogicalPlan logical = sql::bind_select(stmt, context.catalog);
  timings.plan_ms = elapsed_ms(start);
  QueryOutput output = run_plan(std::move(logical), context.options, timings);
  Result result = Result::query(std::move(output));
  result.mutable_timings() = timings;
  return result;
}

}  // namespace floe
