// ANALYZE [table, ...]: computes the optimizer's statistics of the named tables (all tables
// when none is named) now rather than when the next query is planned. Bulk loads (COPY,
// CALL dbgen) do it themselves.
#include "engine/api/statement_context.h"
#include "storage/error.h"

namespace floe {

Result run_analyze(const PgQuery__VacuumStmt& stmt, StatementContext& context) {
  if (stmt.is_vacuumcmd) throw NotSupported("VACUUM");
  if (stmt.n_options) throw NotSupported("ANALYZE options");
  std::vector<const Table*> tables;
  for (size_t i = 0; i < stmt.n_rels; ++i) {
    const PgQuery__VacuumRelation& relation = *stmt.rels[i]->vacuum_relation;
    if (relation.n_va_cols) throw NotSupported("ANALYZE of single columns");
    const Table* table = context.catalog.find_table(relation.relation->relname);
    if (!table)
      throw Error("relation \"" + std::string(relation.relation->relname) + "\" does not exist",
                  relation.relation->location);
    tables.push_back(table);
  }
  if (stmt.n_rels == 0)
    for (const std::string& name : context.catalog.table_names())
      tables.push_back(context.catalog.find_table(name));
  for (const Table* table : tables) table->analyze();
  return Result::command("ANALYZE");
}

}  // namespace floe
