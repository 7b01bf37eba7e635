// A table's columns and constraints as CREATE TABLE and ALTER TABLE ... ADD define them:
// NOT NULL, PRIMARY KEY, UNIQUE, CHECK, FOREIGN KEY, DEFAULT, serial types and identity
// columns, each checked and named as PostgreSQL does. CREATE TABLE starts empty; ALTER TABLE
// starts from the existing table and adds to it.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "engine/sql/pg_node.h"
#include "storage/catalog.h"

namespace floe {

class TableDefinition {
 public:
  TableDefinition(std::string name, Catalog& catalog);
  // The definition of an existing table, to add columns and constraints to.
  explicit TableDefinition(const Table& table, Catalog& catalog);

  void add_column(const PgQuery__ColumnDef& def);
  void add_table_constraint(const PgQuery__Constraint& constraint);

  // ALTER TABLE. A column by name, or nullopt.
  std::optional<size_t> column(std::string_view name) const { return find(name); }
  // Removes a column with the keys, CHECK constraints and foreign keys that use it; throws
  // PostgreSQL's error when a foreign key depends on it.
  void drop_column(size_t column);
  // SET DEFAULT expression, or DROP DEFAULT (nullptr).
  void set_default(size_t column, const sql::Node* expression, int location);
  void set_not_null(size_t column, bool not_null, int location);
  // Per column, the existing table's column it was, or nullopt for a new column.
  const std::vector<std::optional<size_t>>& origins() const { return origins_; }
  // The sequences that dropped columns owned (to drop once the change is made).
  const std::vector<std::string>& dropped_sequences() const { return dropped_sequences_; }
  // The sequences finish() created (to drop again should the change fail).
  const std::vector<std::string>& created_sequences() const { return created_sequences_; }

  // What the definition comes to: checked, with every constraint named and the sequences of
  // serial and identity columns created. `self`: the table itself when it exists already
  // (ALTER TABLE), for foreign keys that reference it; CREATE TABLE passes the new table
  // through complete_self_references.
  struct Result {
    std::vector<ColumnDef> columns;
    std::vector<KeyConstraint> keys;
    TableConstraints constraints;
  };
  Result finish(const Table* self);
  // CREATE TABLE: the table, created in the catalog (dropped again on failure).
  Table& create();

  // The CHECK constraints and foreign keys added to an existing table, which its rows must
  // satisfy (ALTER TABLE ADD).
  size_t first_new_check() const { return existing_checks_; }
  size_t first_new_foreign_key() const { return existing_foreign_keys_; }

 private:
  struct PendingCheck {
    std::string name;
    const sql::Node* expression;
  };
  struct PendingForeignKey {
    const PgQuery__Constraint* constraint;
    std::vector<size_t> columns;
  };
  struct ColumnSource {
    const sql::Node* default_expression = nullptr;  // a new DEFAULT
    const PgQuery__Constraint* identity = nullptr;  // GENERATED ... AS IDENTITY
    bool serial = false;
    int location = -1;
  };

  std::optional<size_t> find(std::string_view name) const;
  void add_key(const PgQuery__Constraint& constraint, std::vector<size_t> columns);
  void add_column_constraint(const PgQuery__Constraint& constraint, size_t column);
  // CHECK, or FOREIGN KEY on `columns`; other kinds are not supported.
  void add_check_or_foreign_key(const PgQuery__Constraint& constraint, std::vector<size_t> columns);
  std::vector<size_t> column_list(PgQuery__Node* const* names, size_t count, int location,
                                  const char* missing) const;
  // PostgreSQL's ChooseConstraintName: base_suffix, with a number when that is taken.
  std::string choose_name(const std::string& base, const std::string& suffix) const;
  std::string key_name(const KeyConstraint& key) const;
  ForeignKey resolve_foreign_key(const PendingForeignKey& pending, const Table* self) const;

  std::string name_;
  Catalog& catalog_;
  std::vector<ColumnDef> columns_;
  std::vector<KeyConstraint> keys_;
  TableConstraints constraints_;
  std::vector<ColumnSource> sources_;  // one per column
  std::vector<PendingCheck> checks_;
  std::vector<PendingForeignKey> foreign_keys_;
  size_t existing_checks_ = 0;
  size_t existing_foreign_keys_ = 0;
  std::vector<std::optional<size_t>> origins_;  // one per column
  std::vector<std::string> dropped_sequences_;
  std::vector<std::string> created_sequences_;
};

}  // namespace floe
