// DROP TABLE | VIEW | INDEX [IF EXISTS] name [, ...]: all named objects must exist, and be of
// the named kind, before any is dropped.
#include "engine/api/statement_context.h"
#include "storage/error.h"

namespace floe {

namespace {

// DROP INDEX: only indexes made by CREATE INDEX; a constraint's index goes with its constraint.
Result run_drop_index(const PgQuery__DropStmt& stmt, StatementContext& context) {
  Result result = Result::command("DROP INDEX");
  std::vector<std::pair<Table*, std::string>> indexes;
  for (size_t i = 0; i < stmt.n_objects; ++i) {
    const PgQuery__List& parts = *stmt.objects[i]->list;
    if (parts.n_items != 1) throw NotSupported("schemas");
    std::string name(sql::node_string(parts.items[0]));
    Table* table = context.catalog.find_index_table(name);
    if (!table) {
      if (context.catalog.find_table(name))
        throw Error("\"" + name + "\" is not an index\nHINT:  Use DROP TABLE to remove a table.");
      if (context.catalog.find_view(name))
        throw Error("\"" + name + "\" is not an index\nHINT:  Use DROP VIEW to remove a view.");
      if (!stmt.missing_ok) throw Error("index \"" + name + "\" does not exist");
      result.add_notice("index \"" + name + "\" does not exist, skipping");
      continue;
    }
    if (!table->find_index(name)->constraint().standalone)
      throw Error("cannot drop index " + name + " because constraint " + name + " on table " +
                  table->name() + " requires it\nHINT:  You can drop constraint " + name +
                  " on table " + table->name() + " instead.");
    indexes.emplace_back(table, std::move(name));
  }
  for (auto& [table, name] : indexes) table->drop_index(name);
  return result;
}

}  // namespace

Result run_drop(const PgQuery__DropStmt& stmt, StatementContext& context) {
  if (stmt.remove_type == PG_QUERY__OBJECT_TYPE__OBJECT_INDEX) return run_drop_index(stmt, context);
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
