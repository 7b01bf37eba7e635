// TRUNCATE [TABLE] [ONLY] t [, ...] [RESTART | CONTINUE IDENTITY] [CASCADE | RESTRICT]: every
// named table must exist before any is emptied. floe has no sequences or foreign keys yet,
// so the identity and cascade options change nothing.
#include "engine/api/statement_context.h"
#include "storage/error.h"

namespace floe {

Result run_truncate(const PgQuery__TruncateStmt& stmt, StatementContext& context) {
  std::vector<Table*> tables;
  for (size_t i = 0; i < stmt.n_relations; ++i) {
    const PgQuery__RangeVar& relation = *stmt.relations[i]->range_var;
    Table* table = context.catalog.find_table(relation.relname);
    if (!table) {
      if (context.catalog.find_view(relation.relname))
        throw Error("\"" + std::string(relation.relname) + "\" is not a table", relation.location);
      throw Error("relation \"" + std::string(relation.relname) + "\" does not exist",
                  relation.location);
    }
    if (table->has_version_chains())
      throw NotSupported("TRUNCATE of a table with changes that running transactions may need");
    tables.push_back(table);
  }
  for (Table* table : tables) table->remove_all_rows();
  return Result::command("TRUNCATE TABLE");
}

}  // namespace floe
