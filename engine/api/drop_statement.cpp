// DROP TABLE | VIEW | SEQUENCE | INDEX [IF EXISTS] name [, ...]: all named objects must
// exist, and be of the named kind, before any is dropped. A table referenced by a foreign key of a table
// not dropped with it, and a sequence a column owns, cannot be dropped (no CASCADE).
#include <algorithm>

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

enum class Kind { kTable, kView, kSequence };

Kind object_kind(const PgQuery__DropStmt& stmt) {
  switch (stmt.remove_type) {
    case PG_QUERY__OBJECT_TYPE__OBJECT_TABLE:
      return Kind::kTable;
    case PG_QUERY__OBJECT_TYPE__OBJECT_VIEW:
      return Kind::kView;
    case PG_QUERY__OBJECT_TYPE__OBJECT_SEQUENCE:
      return Kind::kSequence;
    default:
      throw NotSupported("DROP of this kind of object");
  }
}

std::optional<Kind> existing_kind(const Catalog& catalog, const std::string& name) {
  if (catalog.find_table(name)) return Kind::kTable;
  if (catalog.find_view(name)) return Kind::kView;
  if (catalog.find_sequence(name)) return Kind::kSequence;
  return std::nullopt;
}

// PostgreSQL's dependency errors for what is about to be dropped (every dependent object
// of the first object that has some, one per line).
void check_dependencies(const Catalog& catalog, Kind kind, const std::vector<std::string>& names) {
  for (const std::string& name : names) {
    std::string detail;
    auto add = [&](const std::string& line) { detail += (detail.empty() ? "" : "\n") + line; };
    if (kind == Kind::kTable) {
      for (auto [table, key] : catalog.references_to(*catalog.find_table(name)))
        if (std::find(names.begin(), names.end(), table->name()) == names.end())
          add("constraint " + key->name + " on table " + table->name() + " depends on table " +
              name);
    } else if (kind == Kind::kSequence) {
      for (const std::string& table_name : catalog.table_names()) {
        const Table& table = *catalog.find_table(table_name);
        for (size_t c = 0; c < table.columns().size(); ++c)
          if (table.constraints().defaults[c].owned_sequence == name)
            add("default value for column " + table.columns()[c].name + " of table " + table_name +
                " depends on sequence " + name);
      }
    }
    if (!detail.empty())
      throw Error("cannot drop " + std::string(kind == Kind::kTable ? "table " : "sequence ") +
                  name + " because other objects depend on it\nDETAIL:  " + detail +
                  "\nHINT:  Use DROP ... CASCADE to drop the dependent objects too.");
  }
}

}  // namespace

Result run_drop(const PgQuery__DropStmt& stmt, StatementContext& context) {
  if (stmt.remove_type == PG_QUERY__OBJECT_TYPE__OBJECT_INDEX) return run_drop_index(stmt, context);
  const Kind kind = object_kind(stmt);
  const char* kind_name = kind == Kind::kTable  ? "table"
                          : kind == Kind::kView ? "view"
                                                : "sequence";
  Result result = Result::command(kind == Kind::kTable  ? "DROP TABLE"
                                  : kind == Kind::kView ? "DROP VIEW"
                                                        : "DROP SEQUENCE");
  std::vector<std::string> names;
  for (size_t i = 0; i < stmt.n_objects; ++i) {
    const PgQuery__List& parts = *stmt.objects[i]->list;
    if (parts.n_items != 1) throw NotSupported("schemas");
    std::string name(sql::node_string(parts.items[0]));
    std::optional<Kind> existing = existing_kind(context.catalog, name);
    if (existing == Kind::kTable && kind == Kind::kTable &&
        context.catalog.find_table(name)->has_version_chains())
      throw NotSupported("DROP TABLE of a table with changes that running transactions may need");
    if (existing == kind)
      names.push_back(std::move(name));
    else if (existing)
      throw Error("\"" + name + "\" is not a " + kind_name);
    else if (!stmt.missing_ok)
      throw Error(std::string(kind_name) + " \"" + name + "\" does not exist");
    else
      result.add_notice(std::string(kind_name) + " \"" + name + "\" does not exist, skipping");
  }
  if (stmt.behavior == PG_QUERY__DROP_BEHAVIOR__DROP_CASCADE)
    throw NotSupported("DROP ... CASCADE");
  check_dependencies(context.catalog, kind, names);
  for (const std::string& name : names) {
    if (kind == Kind::kView)
      context.catalog.drop_view(name);
    else if (kind == Kind::kSequence)
      context.catalog.drop_sequence(name);
    else
      context.catalog.drop_table(name);
  }
  return result;
}

}  // namespace floe
