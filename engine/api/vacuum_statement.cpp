// VACUUM FREEZE [table, ...] (also VACUUM (FREEZE [, ANALYZE]) ...): freezes every hot chunk of
// the named tables (all tables when none is named), the partial last one included, into Data
// Blocks; later inserts start a new hot chunk. With ANALYZE, the statistics are computed too.
// VACUUM without FREEZE has nothing to reclaim in floe yet (rows are never deleted), so it is
// not accepted.
#include "engine/api/statement_context.h"
#include "storage/error.h"

namespace floe {

Result run_vacuum(const PgQuery__VacuumStmt& stmt, StatementContext& context) {
  bool freeze = false;
  bool analyze = false;
  for (size_t i = 0; i < stmt.n_options; ++i) {
    const PgQuery__DefElem& option = *stmt.options[i]->def_elem;
    std::string name = option.defname;
    if (name == "freeze")
      freeze = true;
    else if (name == "analyze")
      analyze = true;
    else if (name != "verbose")
      throw NotSupported("VACUUM option " + name, option.location);
  }
  if (!freeze) throw NotSupported("VACUUM without FREEZE");
  for (Table* table : vacuum_tables(stmt, context.catalog, "VACUUM")) {
    table->freeze_all();
    if (analyze) table->analyze();
  }
  return Result::command("VACUUM");
}

}  // namespace floe
