// CREATE [UNIQUE] INDEX [IF NOT EXISTS] [name] ON t [USING btree | art] (c1, c2, ...): an
// Adaptive Radix Tree over the table's rows (storage/unique_index.h), built in parallel over
// the existing rows and kept by every later insert. PostgreSQL's names and errors; its btree
// is accepted as the ART (both are ordered indexes serving the same queries).
#include <algorithm>

#include "engine/api/statement_context.h"
#include "storage/error.h"

namespace floe {

namespace {

void check_access_method(std::string_view method) {
  if (method == "btree" || method == "art") return;
  if (method == "hash" || method == "gist" || method == "gin" || method == "spgist" ||
      method == "brin")
    throw NotSupported("index access method \"" + std::string(method) + "\"");
  throw Error("access method \"" + std::string(method) + "\" does not exist");
}

// The columns of the index, checked against the table; only plain columns in ascending order.
std::vector<size_t> key_columns(const PgQuery__IndexStmt& stmt, const Table& table) {
  std::vector<size_t> columns;
  for (size_t i = 0; i < stmt.n_index_params; ++i) {
    const PgQuery__IndexElem& element = *stmt.index_params[i]->index_elem;
    if (element.expr) throw NotSupported("indexes on expressions");
    if (element.n_collation || element.n_opclass || element.n_opclassopts)
      throw NotSupported("collations and operator classes in indexes");
    if (element.ordering == PG_QUERY__SORT_BY_DIR__SORTBY_DESC ||
        element.nulls_ordering == PG_QUERY__SORT_BY_NULLS__SORTBY_NULLS_FIRST)
      throw NotSupported("descending or NULLS FIRST index columns");
    auto column = table.find_column(element.name);
    if (!column) throw Error("column \"" + std::string(element.name) + "\" does not exist");
    columns.push_back(*column);
  }
  return columns;
}

// PostgreSQL's ChooseIndexName: t_a_b_idx, numbered (t_a_b_idx1, ...) when the name is taken.
std::string choose_name(const Table& table, const std::vector<size_t>& columns,
                        const Catalog& catalog) {
  std::string base = table.name();
  for (size_t column : columns) base += "_" + table.columns()[column].name;
  base += "_idx";
  for (int number = 0;; ++number) {
    std::string name = number ? base + std::to_string(number) : base;
    if (!catalog.find_table(name) && !catalog.find_view(name) && !catalog.find_index_table(name))
      return name;
  }
}

}  // namespace

Result run_create_index(const PgQuery__IndexStmt& stmt, StatementContext& context) {
  const PgQuery__RangeVar& relation = *stmt.relation;
  if (relation.schemaname[0]) throw NotSupported("schemas", relation.location);
  check_access_method(stmt.access_method);
  if (stmt.where_clause) throw NotSupported("partial indexes");
  if (stmt.n_index_including_params) throw NotSupported("INCLUDE in indexes");
  if (stmt.n_options || stmt.table_space[0]) throw NotSupported("index storage parameters");
  if (stmt.nulls_not_distinct) throw NotSupported("UNIQUE NULLS NOT DISTINCT");
  const std::string table_name = relation.relname;
  Table* table = context.catalog.find_table(table_name);
  if (!table) {
    if (context.catalog.find_view(table_name))
      throw Error("cannot create index on relation \"" + table_name +
                  "\"\nDETAIL:  This operation is not supported for views.");
    throw Error("relation \"" + table_name + "\" does not exist", relation.location);
  }
  std::string name = stmt.idxname;
  if (!name.empty() && stmt.if_not_exists &&
      (context.catalog.find_table(name) || context.catalog.find_view(name) ||
       context.catalog.find_index_table(name))) {
    Result result = Result::command("CREATE INDEX");
    result.add_notice("relation \"" + name + "\" already exists, skipping");
    return result;
  }
  KeyConstraint index;
  index.columns = key_columns(stmt, *table);
  index.name = name.empty() ? choose_name(*table, index.columns, context.catalog) : name;
  index.unique = stmt.unique;
  index.standalone = true;
  context.catalog.create_index(*table, std::move(index));
  return Result::command("CREATE INDEX");
}

}  // namespace floe
