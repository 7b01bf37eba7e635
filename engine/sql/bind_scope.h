// Name resolution for one query level: the tables of its FROM clause and their columns.
#pragma once

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
};

struct ScopeTable {
  std::string alias;
  std::vector<ScopeColumn> columns;
};

// State shared by all query levels of one statement.
struct BindContext {
  const Catalog& catalog;
  plan::ColumnRegistry& registry;
  // The WITH queries that can be named here, innermost last. While a WITH query is bound,
  // only the ones before it are here (no recursion).
  std::vector<const PgQuery__CommonTableExpr*> ctes = {};
  // now(), CURRENT_TIMESTAMP and the like: one clock reading per statement.
  int64_t statement_time = current_timestamp_micros();
};

class BindScope {
 public:
  // `outer` is the enclosing query's scope (for a subquery): names not found here resolve
  // there (correlated references).
  explicit BindScope(const BindScope* outer = nullptr) : outer_(outer) {}

  // Throws when the alias is already taken.
  void add_table(ScopeTable table, int location);
  const std::vector<ScopeTable>& tables() const { return tables_; }
  // The columns of tables()[first..end) become nullable (the NULL-extended side of an outer
  // join), here and in the registry.
  void make_nullable(size_t first, size_t end, plan::ColumnRegistry& registry);

  // `table` empty = unqualified. Looks in enclosing scopes when not found here. Throws floe::Error "column ... does not exist",
  // "column reference ... is ambiguous", "missing FROM-clause entry ...".
  const ScopeColumn& resolve(std::string_view table, std::string_view column, int location) const;
  // The columns of `table` (all tables when empty), for * and t.*.
  std::vector<const ScopeColumn*> star(std::string_view table, int location) const;
  bool contains(plan::ColumnId id) const;

 private:
  const ScopeColumn* find(std::string_view table, std::string_view column, int location) const;

  const BindScope* outer_;
  std::vector<ScopeTable> tables_;
};

}  // namespace floe::sql
