#include "engine/sql/bind_scope.h"

#include "storage/error.h"

namespace floe::sql {

namespace {

std::string display_name(std::string_view table, std::string_view column) {
  return table.empty() ? std::string(column) : std::string(table) + "." + std::string(column);
}

}  // namespace

void BindScope::add_table(ScopeTable table, int location) {
  for (const ScopeTable& existing : tables_)
    if (existing.alias == table.alias)
      throw Error("table name \"" + table.alias + "\" specified more than once", location);
  tables_.push_back(std::move(table));
}

void BindScope::rename_columns(size_t table, const std::vector<std::string>& names, int location) {
  ScopeTable& renamed = tables_[table];
  if (names.size() > renamed.columns.size())
    throw Error("table \"" + renamed.alias + "\" has " + std::to_string(renamed.columns.size()) +
                    " columns available but " + std::to_string(names.size()) + " columns specified",
                location);
  for (size_t i = 0; i < names.size(); ++i) renamed.columns[i].name = names[i];
}

const ScopeColumn* BindScope::find(std::string_view table, std::string_view column,
                                   int location) const {
  const ScopeColumn* found = nullptr;
  bool table_seen = false;
  for (const ScopeTable& candidate : tables_) {
    if (!table.empty() && candidate.alias != table) continue;
    table_seen = true;
    for (const ScopeColumn& c : candidate.columns) {
      if (c.name != column || (table.empty() && c.qualified_only)) continue;
      if (found)
        throw Error("column reference \"" + std::string(column) + "\" is ambiguous", location);
      found = &c;
    }
  }
  if (!table.empty() && !table_seen && !(outer_ && outer_->names_table(table))) {
    if (hides_table(table))
      throw Error("invalid reference to FROM-clause entry for table \"" + std::string(table) + "\"",
                  location);
    throw Error("missing FROM-clause entry for table \"" + std::string(table) + "\"", location);
  }
  return found;
}

bool BindScope::names_table(std::string_view table) const {
  for (const ScopeTable& candidate : tables_)
    if (candidate.alias == table) return true;
  return outer_ && outer_->names_table(table);
}

bool BindScope::hides_table(std::string_view table) const {
  for (const BindScope* scope = this; scope; scope = scope->outer_)
    if (scope->hidden_ && scope->hidden_->names_table(table)) return true;
  return false;
}

const ScopeColumn& BindScope::resolve(std::string_view table, std::string_view column,
                                      int location) const {
  if (const ScopeColumn* found = find(table, column, location)) return *found;
  bool table_here = false;
  for (const ScopeTable& candidate : tables_)
    table_here |= !table.empty() && candidate.alias == table;
  if (table_here)
    throw Error("column " + display_name(table, column) + " does not exist", location);
  // A correlated reference: the subquery's plan reads a column it does not produce, which
  // the unnesting pass (engine/plan/subquery_unnesting.h) turns into a join.
  for (const BindScope* outer = outer_; outer; outer = outer->outer_)
    if (const ScopeColumn* found = outer->find(table, column, location)) return *found;
  throw Error("column \"" + display_name(table, column) + "\" does not exist", location);
}

std::vector<const ScopeColumn*> BindScope::star(std::string_view table, int location) const {
  std::vector<const ScopeColumn*> result;
  bool table_seen = false;
  for (const ScopeTable& candidate : tables_) {
    if (!table.empty() && candidate.alias != table) continue;
    table_seen = true;
    for (const ScopeColumn& c : candidate.columns)
      if (!table.empty() || !c.qualified_only) result.push_back(&c);
  }
  if (!table.empty() && !table_seen)
    throw Error("missing FROM-clause entry for table \"" + std::string(table) + "\"", location);
  if (table.empty() && tables_.empty())
    throw Error("SELECT * with no tables specified is not valid", location);
  return result;
}

void BindScope::make_nullable(size_t first, size_t end, plan::ColumnRegistry& registry) {
  for (size_t t = first; t < end; ++t) {
    for (ScopeColumn& column : tables_[t].columns) {
      column.nullable = true;
      registry[column.id].nullable = true;
    }
  }
}

std::vector<ScopeColumn*> BindScope::unqualified_columns(size_t first, size_t end,
                                                         std::string_view name) {
  std::vector<ScopeColumn*> found;
  for (size_t t = first; t < end; ++t)
    for (ScopeColumn& column : tables_[t].columns)
      if (column.name == name && !column.qualified_only) found.push_back(&column);
  return found;
}

void BindScope::insert_merged_columns(size_t at, std::vector<ScopeColumn> columns) {
  tables_.insert(tables_.begin() + static_cast<std::ptrdiff_t>(at),
                 ScopeTable{"", std::move(columns)});
}

bool BindScope::contains(plan::ColumnId id) const {
  for (const ScopeTable& table : tables_)
    for (const ScopeColumn& c : table.columns)
      if (c.id == id) return true;
  return false;
}

}  // namespace floe::sql
