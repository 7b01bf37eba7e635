// CREATE TABLE t [(names)] AS SELECT ... [WITH [NO] DATA], and its other spelling
// SELECT ... INTO t: a new table with the query's column names and types (an unresolved
// literal is text, as in PostgreSQL), filled with the query's rows. All or nothing: when the
// query fails, the table is dropped again.
#include "engine/api/query_runner.h"
#include "engine/api/statement_context.h"
#include "engine/sql/select_binder.h"
#include "storage/error.h"

namespace floe {

namespace {

std::vector<ColumnDef> result_columns(const plan::LogicalPlan& logical,
                                      const PgQuery__IntoClause& into) {
  if (into.n_col_names > logical.outputs.size())
    throw Error("too many column names were specified");
  std::vector<ColumnDef> columns;
  for (size_t i = 0; i < logical.outputs.size(); ++i) {
    std::string name = i < into.n_col_names ? std::string(sql::node_string(into.col_names[i]))
                                            : logical.outputs[i].name;
    for (const ColumnDef& earlier : columns)
      if (earlier.name == name) throw Error("column \"" + name + "\" specified more than once");
    columns.push_back({std::move(name), logical.registry[logical.outputs[i].id].type, true});
  }
  return columns;
}

}  // namespace

Result run_create_table_as(const PgQuery__SelectStmt& query, const PgQuery__IntoClause& into,
                           bool if_not_exists, StatementContext& context) {
  const PgQuery__RangeVar& relation = *into.rel;
  if (relation.relpersistence && std::string_view(relation.relpersistence) == "t")
    throw NotSupported("temporary tables", relation.location);
  if (context.catalog.find_table(relation.relname)) {
    if (!if_not_exists)
      throw Error("relation \"" + std::string(relation.relname) + "\" already exists",
                  relation.location);
    Result result = Result::command("CREATE TABLE AS");
    result.add_notice("relation \"" + std::string(relation.relname) + "\" already exists, skipping");
    return result;
  }
  PhaseTimings timings;
  auto start = std::chrono::steady_clock::now();
  plan::LogicalPlan logical = sql::bind_select(query, context.catalog);
  Table& table = context.catalog.create_table(relation.relname, result_columns(logical, into), {});
  if (into.skip_data) return Result::command("CREATE TABLE AS");
  uint64_t rows = 0;
  try {
    QueryOutput output = run_plan(std::move(logical), context.options, timings);
    TableAppender appender(table);
    for (const auto& row : output.rows) appender.append_row(row);
    rows = output.rows.size();
  } catch (...) {
    context.catalog.drop_table(relation.relname);
    throw;
  }
  if (context.database.freezer().bulk_loads_freeze()) table.freeze_full_chunks();
  Result result = Result::command("SELECT " + std::to_string(rows), rows);
  timings.plan_ms =
      elapsed_ms(start) - timings.codegen_ms - timings.compile_ms - timings.execute_ms;
  result.mutable_timings() = timings;
  return result;
}

Result run_create_table_as(const PgQuery__CreateTableAsStmt& stmt, StatementContext& context) {
  int location = stmt.into->rel->location;
  if (stmt.objtype == PG_QUERY__OBJECT_TYPE__OBJECT_MATVIEW)
    throw NotSupported("CREATE MATERIALIZED VIEW", location);
  if (stmt.query->node_case != PG_QUERY__NODE__NODE_SELECT_STMT)
    throw NotSupported("CREATE TABLE AS EXECUTE", location);
  return run_create_table_as(*stmt.query->select_stmt, *stmt.into, stmt.if_not_exists, context);
}

}  // namespace floe
