// The catalog: named tables and their columns, and views. Names are stored as the binder resolved
// them (unquoted identifiers folded to lower case, as in PostgreSQL).
#pragma once

#include <map>
#include <memory>
#include <string>
#include <vector>

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

 private:
  void check_name_free(const std::string& name) const;

  std::map<std::string, std::unique_ptr<Table>> tables_;
  std::map<std::string, View> views_;
};

}  // namespace floe
