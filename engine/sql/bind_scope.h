// Name resolution for one query level: the tables of its FROM clause and their columns.
#pragma once

#include <memory>
#include <set>
#include <string>
#include <string_view>
#include <vector>

#include "engine/plan/logical_plan.h"
#include "engine/sql/pg_node.h"
#include "storage/catalog.h"
#include "storage/date_time.h"

namespace floe::sql {

struct ScopeColumn {
  std::string name;
  plan::ColumnId id;
  SqlType type;
  bool nullable;
  // Reachable only qualified (t.x, t.*): a column that JOIN ... USING or NATURAL JOIN merged,
  // whose unqualified name now means the merged column.
  bool qualified_only = false;
};

struct ScopeTable {
  std::string alias;  // empty for the merged columns of a JOIN ... USING (no qualified name)
  std::vector<ScopeColumn> columns;
};

// A WITH RECURSIVE query while its terms are bound: naming it scans its working table.
struct WorkingTable {
  std::string name;
  const Table* table = nullptr;  // null while naming it is an error:
  std::string misplaced;         // the error then
  int references = 0;
};

// State shared by all query levels of one statement.
struct BindContext {
  const Catalog& catalog;
  plan::ColumnRegistry& registry;
  // The WITH queries that can be named here, innermost last. While a WITH query is bound,
  // only the ones before it are here (a recursive one names itself through working_tables).
  std::vector<const PgQuery__CommonTableExpr*> ctes = {};
  // The WITH queries of WITH RECURSIVE clauses.
  std::set<const PgQuery__CommonTableExpr*> recursive_ctes = {};
  // The recursive WITH queries being bound, innermost last.
  std::vector<WorkingTable*> working_tables = {};
  // The statement's recursive WITH queries, in the order they must run.
  std::vector<std::shared_ptr<plan::RecursiveQuery>> recursive_queries = {};
  // now(), CURRENT_TIMESTAMP and the like: one clock reading per statement.
  int64_t statement_time = current_timestamp_micros();
};

class BindScope {
 public:
  // `outer` is the enclosing query's scope (for a subquery): names not found here resolve
  // there (correlated references).
  explicit BindScope(const BindScope* outer = nullptr) : outer_(outer) {}
  // The scope of a FROM item that is not LATERAL: it sees the enclosing query's scope, not
  // the other items of `siblings`' FROM clause (naming one is an "invalid reference").
  BindScope(const BindScope* outer, const BindScope* siblings) : outer_(outer), hidden_(siblings) {}
  const BindScope* outer() const { return outer_; }

  // Throws when the alias is already taken.
  void add_table(ScopeTable table, int location);
  const std::vector<ScopeTable>& tables() const { return tables_; }
  // Column aliases (FROM t AS x(a, b)): the first names.size() columns of tables()[table]
  // take these names. Throws when the table has fewer columns.
  void rename_columns(size_t table, const std::vector<std::string>& names, int location);
  // The columns of tables()[first..end) become nullable (the NULL-extended side of an outer
  // join), here and in the registry.
  void make_nullable(size_t first, size_t end, plan::ColumnRegistry& registry);

  // `table` empty = unqualified. Looks in enclosing scopes when not found here. Throws floe::Error
  // "column ... does not exist", "column reference ... is ambiguous", "missing FROM-clause entry
  // ...".
  const ScopeColumn& resolve(std::string_view table, std::string_view column, int location) const;
  // The columns of `table` (all tables when empty), for * and t.*.
  std::vector<const ScopeColumn*> star(std::string_view table, int location) const;
  bool contains(plan::ColumnId id) const;

  // JOIN ... USING: the columns named `name` of tables()[first..end) that an unqualified
  // reference could mean.
  std::vector<ScopeColumn*> unqualified_columns(size_t first, size_t end, std::string_view name);
  // Inserts the merged columns of a JOIN ... USING as an alias-less table before tables()[at],
  // so that * lists them first, as PostgreSQL does.
  void insert_merged_columns(size_t at, std::vector<ScopeColumn> columns);

 private:
  const ScopeColumn* find(std::string_view table, std::string_view column, int location) const;
  // Whether this scope or an enclosing one has a table of that name.
  bool names_table(std::string_view table) const;
  // Whether a hidden FROM clause (of this scope or an enclosing one) has a table of that name.
  bool hides_table(std::string_view table) const;

  const BindScope* outer_;
  const BindScope* hidden_ = nullptr;
  std::vector<ScopeTable> tables_;
};

}  // namespace floe::sql
