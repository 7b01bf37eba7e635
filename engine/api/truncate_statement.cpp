// TRUNCATE [TABLE] [ONLY] t [, ...] [RESTART | CONTINUE IDENTITY] [CASCADE | RESTRICT]: every
// named table must exist before any is emptied. A table that a foreign key of a table not
// truncated with it references cannot be truncated, unless CASCADE truncates those tables
// too. RESTART IDENTITY restarts the sequences the tables' columns own.
#include <algorithm>

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
  Result result = Result::command("TRUNCATE TABLE");
  const bool cascade = stmt.behavior == PG_QUERY__DROP_BEHAVIOR__DROP_CASCADE;
  for (size_t i = 0; i < tables.size(); ++i) {  // grows with CASCADE
    Table* table = tables[i];
    for (auto [referencing, key] : context.catalog.references_to(*table)) {
      if (std::find(tables.begin(), tables.end(), referencing) != tables.end()) continue;
      if (cascade) {
        result.add_notice("truncate cascades to table \"" + referencing->name() + "\"");
        tables.push_back(referencing);
        continue;
      }
      throw Error("cannot truncate a table referenced in a foreign key constraint\nDETAIL:  " +
                  std::string("Table \"") + referencing->name() + "\" references \"" +
                  table->name() + "\".\nHINT:  Truncate table \"" + referencing->name() +
                  "\" at the same time, or use TRUNCATE ... CASCADE.");
    }
  }
  for (Table* table : tables) {
    table->remove_all_rows();
    if (!stmt.restart_seqs) continue;
    for (const ColumnDefault& column : table->constraints().defaults)
      if (Sequence* sequence = context.catalog.find_sequence(column.owned_sequence))
        sequence->set(sequence->options().start, false);
  }
  return result;
}

}  // namespace floe
