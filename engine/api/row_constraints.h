// What a new row of a table must get and satisfy beyond its unique indexes: the defaults of
// the columns a statement leaves out, NOT NULL, CHECK constraints and foreign keys. INSERT
// (VALUES and SELECT) and COPY FROM share it. Default and CHECK expressions are bound from the
// catalog's text once per statement and evaluated per row by evaluate_row_expression, the one
// place that evaluates them.
#pragma once

#include <vector>

#include "engine/plan/expression.h"
#include "engine/plan/logical_plan.h"
#include "engine/sql/bind_scope.h"
#include "engine/sql/pg_node.h"
#include "storage/catalog.h"

namespace floe {

// A scope naming a table's columns (as `table_name`), column i as ColumnId i of `registry`:
// expressions bound in it are evaluated over a row by evaluate_row_expression.
sql::BindScope table_scope(const std::string& table_name, const std::vector<ColumnDef>& columns,
                           plan::ColumnRegistry& registry);
// Adds such a table to a scope; its columns take the next ColumnIds of `registry`.
void add_scope_table(sql::BindScope& scope, const std::string& table_name,
                     const std::vector<ColumnDef>& columns, plan::ColumnRegistry& registry);

// Whether INSERT may store a value of type `source` in a column of type `target` (an
// assignment cast exists).
bool assignable(const SqlType& source, const SqlType& target);

// Binds a column's DEFAULT expression (no column references, no subqueries) and checks that
// it can be assigned to the column, with PostgreSQL's errors.
plan::ExprPtr bind_default(const sql::Node* expression, const std::vector<ColumnDef>& columns,
                           size_t column, const Catalog& catalog);

// Binds a CHECK constraint over `columns` (column i is ColumnId i of `registry`), with
// PostgreSQL's errors for subqueries and aggregates.
plan::ExprPtr bind_check(const sql::Node* expression, const std::string& table_name,
                         const std::vector<ColumnDef>& columns, const Catalog& catalog,
                         plan::ColumnRegistry& registry);

// The value of an expression over one row of a table (column i of the table is ColumnId i);
// volatile functions are called anew on every call.
Value evaluate_row_expression(const plan::Expr& expression, const std::vector<Value>& row);

class RowConstraints {
 public:
  RowConstraints(const Table& table, const Catalog& catalog)
      : RowConstraints(table.name(), table.columns(), table.constraints(), catalog) {}
  // A table's definition before it is in place (ALTER TABLE); the arguments must outlive this.
  RowConstraints(const std::string& name, const std::vector<ColumnDef>& columns,
                 const TableConstraints& constraints, const Catalog& catalog);

  // A column's default for one row: NULL when it has none; a volatile default (nextval,
  // random()) is evaluated anew on every call.
  Value default_value(size_t column) const;
  bool has_default(size_t column) const { return defaults_[column] != nullptr; }
  bool has_checks() const { return !checks_.empty(); }
  // NOT NULL and CHECK constraints of a whole row (values of the column types). A CHECK that
  // gives NULL passes.
  void check_row(const std::vector<Value>& row) const;
  // The foreign keys of a whole row (from the `first`th on): a key without NULLs must be in
  // the referenced table.
  void check_foreign_keys(const std::vector<Value>& row, size_t first = 0) const;
  // One foreign key of the table (UPDATE checks those whose columns it sets).
  void check_foreign_key(const std::vector<Value>& row, const ForeignKey& key) const;
  // The CHECK constraints from the `first`th on, with ALTER TABLE's error for existing rows.
  void check_existing_row(const std::vector<Value>& row, size_t first_check) const;

 private:
  const std::string& name_;
  const std::vector<ColumnDef>& columns_;
  const TableConstraints& constraints_;
  bool check_fails(size_t check, const std::vector<Value>& row) const;

  std::vector<plan::ExprPtr> defaults_;  // per column; null without a default
  std::vector<plan::ExprPtr> checks_;    // per CHECK constraint of the table
};

}  // namespace floe
