// The catalog: named tables and their columns. Names are stored as the binder resolved them
// (unquoted identifiers folded to lower case, as in PostgreSQL).
#pragma once

#include <map>
#include <memory>
#include <string>
#include <vector>

#include "storage/table.h"

namespace floe {

class Catalog {
 public:
  Table* find_table(const std::string& name) const;
  // Throws floe::Error when a table of that name exists.
  Table& create_table(const std::string& name, std::vector<ColumnDef> columns,
                      std::vector<size_t> primary_key);
  // Throws floe::Error when there is no such table.
  void drop_table(const std::string& name);
  std::vector<std::string> table_names() const;  // sorted

 private:
  std::map<std::string, std::unique_ptr<Table>> tables_;
};

}  // namespace floe
