// DROP TABLE | VIEW [IF EXISTS] name [, ...]: all named objects must exist, and be of the
// named kind, before any is dropped.
#include "engine/api/statement_context.h"
#include "storage/error.h"

namespace floe {

Result run_drop(const PgQuery__DropStmt& stmt, StatementContext& context) {
  const bool view = stmt.remove_type == PG_QUERY__OBJECT_TYPE__OBJECT_VIEW;
  if (stmt.remove_type != PG_QUERY__OBJECT_TYPE__OBJECT_TABLE && !view)
    throw NotSupported("DROP of this kind of object");
  const char* kind = view ? "view" : "table";
  std::vector<std::string> names;
  for (size_t i = 0; i < stmt.n_objects; ++i) {
    const PgQuery__List& parts = *stmt.objects[i]->list;
    if (parts.n_items != 1) throw NotSupported("schemas");
    std::string name(sql::node_string(parts.items[0]));
    bool is_view = context.catalog.find_view(name) != nullptr;
    bool is_table = context.catalog.find_table(name) != nullptr;
    if (is_table && !view && context.catalog.find_table(name)->has_version_chains())
      throw NotSupported("DROP TABLE of a table with changes that running transactions may need");
    if (view ? is_view : is_table)
      names.push_back(std::move(name));
    else if (is_view || is_table)
      throw Error("\"" + name + "\" is not a " + kind);
    else if (!stmt.missing_ok)
      throw Error(std::string(kind) + " \"" + name + "\" does not exist");
  }
  for (const std::string& name : names) {
    if (view)
      context.catalog.drop_view(name);
    else
      context.catalog.drop_table(name);
  }
  return Result::command(view ? "DROP VIEW" : "DROP TABLE");
}

}  // namespace floe
