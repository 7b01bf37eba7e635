// The catalog: named tables and their columns, and views. Names are stored as the binder resolved
// them (unquoted identifiers folded to lower case, as in PostgreSQL).
#pragma once

#include <map>
#include <memory>
#include <string>
#include <vector>

#include "storage/sequence.h"
#include "storage/table.h"

namespace floe {

// A view is kept as the text of its CREATE VIEW statement and bound anew, like a derived
// table, wherever a query names it.
struct View {
  std::string definition;
  std::vector<std::string> column_names;
};

class Catalog {
 public:
  Table* find_table(const std::string& name) const;
  // Throws floe::Error when a table of that name exists.
  Table& create_table(const std::string& name, std::vector<ColumnDef> columns,
                      std::vector<KeyConstraint> keys);
  // Throws floe::Error when there is no such table.
  void drop_table(const std::string& name);
  std::vector<std::string> table_names() const;  // sorted

  // Indexes share the namespace of tables and views, as relations do in PostgreSQL. The table
  // holding the index named `name` (of a constraint or CREATE INDEX), or null.
  Table* find_index_table(const std::string& name) const;
  // CREATE INDEX: throws floe::Error when a relation of that name exists (or the index meets a
  // duplicate key, Table::add_index).
  const UniqueIndex& create_index(Table& table, KeyConstraint index);

  const View* find_view(const std::string& name) const;
  // Throws floe::Error when a table or view of that name exists (unless `replace` and it is
  // a view).
  void create_view(const std::string& name, View view, bool replace);
  // Throws floe::Error when there is no such view.
  void drop_view(const std::string& name);
  std::vector<std::string> view_names() const;  // sorted

  Sequence* find_sequence(const std::string& name) const;
  Sequence* find_sequence_by_id(uint64_t id) const;
  // Throws floe::Error when a relation of that name exists.
  Sequence& create_sequence(const std::string& name, SequenceOptions options);
  // Throws floe::Error when there is no such sequence.
  void drop_sequence(const std::string& name);
  // Whether a table, view or sequence has this name (they share PostgreSQL's namespace).
  bool relation_exists(const std::string& name) const;

  // Renames a table (ALTER TABLE ... RENAME TO); throws when the new name is taken.
  void rename_table(const std::string& name, const std::string& new_name);
  // The foreign keys that reference `table`, with their tables (`table` itself included
  // when it references itself).
  std::vector<std::pair<Table*, const ForeignKey*>> references_to(const Table& table) const;

 private:
  void check_name_free(const std::string& name) const;

  std::map<std::string, std::unique_ptr<Table>> tables_;
  std::map<std::string, View> views_;
  std::map<std::string, std::unique_ptr<Sequence>> sequences_;
};

}  // namespace floe
