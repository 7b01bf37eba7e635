// ANALYZE [table, ...]: computes the optimizer's statistics of the named tables (all tables
// when none is named) now rather than when the next query is planned. Bulk loads (COPY,
// CALL dbgen) do it themselves.
#include "engine/api/statement_context.h"
#include "storage/error.h"

namespace floe {

std::vector<Table*> vacuum_tables(const PgQuery__VacuumStmt& stmt, Catalog& catalog,
                                  const char* command) {
  std::vector<Table*> tables;
  for (size_t i = 0; i < stmt.n_rels; ++i) {
    const PgQuery__VacuumRelation& relation = *stmt.rels[i]->vacuum_relation;
    if (relation.n_va_cols) throw NotSupported(std::string(command) + " of single columns");
    Table* table = catalog.find_table(relation.relation->relname);
    if (!table)
      throw Error("relation \"" + std::string(relation.relation->relname) + "\" does not exist",
                  relation.relation->location);
    tables.push_back(table);
  }
  if (stmt.n_rels == 0)
    for (const std::string& name : catalog.table_names()) tables.push_back(catalog.find_table(name));
  return tables;
}

Result run_analyze(const PgQuery__VacuumStmt& stmt, StatementContext& context) {
  if (stmt.n_options) throw NotSupported("ANALYZE options");
  for (const Table* table : vacuum_tables(stmt, context.catalog, "ANALYZE")) table->analyze();
  return Result::command("ANALYZE");
}

}  // namespace floe
