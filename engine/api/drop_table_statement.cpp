// DROP TABLE [IF EXISTS] name [, ...]: all named tables must exist before any is dropped.
#include "engine/api/statement_context.h"
#include "storage/error.h"

namespace floe {

Result run_drop(const PgQuery__DropStmt& stmt, StatementContext& context) {
  if (stmt.remove_type != PG_QUERY__OBJECT_TYPE__OBJECT_TABLE)
    throw NotSupported("DROP of this kind of object");
  std::vector<std::string> names;
  for (size_t i = 0; i < stmt.n_objects; ++i) {
    const PgQuery__List& parts = *stmt.objects[i]->list;
    if (parts.n_items != 1) throw NotSupported("schemas");
    std::string name(sql::node_string(parts.items[0]));
    if (context.catalog.find_table(name))
      names.push_back(std::move(name));
    else if (!stmt.missing_ok)
      throw Error("table \"" + name + "\" does not exist");
  }
  for (const std::string& name : names) context.catalog.drop_table(name);
  return Result::command("DROP TABLE");
}

}  // namespace floe
