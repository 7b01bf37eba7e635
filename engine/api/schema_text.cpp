#include "engine/api/schema_text.h"

#include "storage/identifier.h"

namespace floe {

std::string create_table_text(const Table& table) {
  std::string out = "CREATE TABLE " + quote_identifier(table.name()) + " (";
  const std::vector<ColumnDef>& columns = table.columns();
  for (size_t c = 0; c < columns.size(); ++c) {
    out += c ? ",\n  " : "\n  ";
    out += quote_identifier(columns[c].name) + " " + columns[c].type.to_string();
    if (!columns[c].nullable) out += " NOT NULL";
  }
  for (const auto& index : table.unique_indexes()) {
    const KeyConstraint& key = index->constraint();
    if (key.standalone) continue;  // CREATE INDEX, not a constraint of the table
    out += key.primary ? ",\n  PRIMARY KEY (" : ",\n  UNIQUE (";
    for (size_t i = 0; i < key.columns.size(); ++i) {
      if (i) out += ", ";
      out += quote_identifier(columns[key.columns[i]].name);
    }
    out += ")";
  }
  return out + "\n);\n";
}

}  // namespace floe
