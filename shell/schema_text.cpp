#include "shell/schema_text.h"

#include <cctype>

namespace floe {

namespace {

// Names that would not read back as the same identifier get double quotes.
std::string quote_identifier(const std::string& name) {
  bool plain = !name.empty() && !std::isdigit(static_cast<unsigned char>(name[0]));
  for (char c : name)
    plain = plain && (std::islower(static_cast<unsigned char>(c)) ||
                      std::isdigit(static_cast<unsigned char>(c)) || c == '_');
  if (plain) return name;
  std::string out = "\"";
  for (char c : name) out += c == '"' ? std::string("\"\"") : std::string(1, c);
  return out + "\"";
}

}  // namespace

std::string create_table_text(const Table& table) {
  std::string out = "CREATE TABLE " + quote_identifier(table.name()) + " (";
  const std::vector<ColumnDef>& columns = table.columns();
  for (size_t c = 0; c < columns.size(); ++c) {
    out += c ? ",\n  " : "\n  ";
    out += quote_identifier(columns[c].name) + " " + columns[c].type.to_string();
    if (!columns[c].nullable) out += " NOT NULL";
  }
  if (!table.primary_key().empty()) {
    out += ",\n  PRIMARY KEY (";
    for (size_t i = 0; i < table.primary_key().size(); ++i) {
      if (i) out += ", ";
      out += quote_identifier(columns[table.primary_key()[i]].name);
    }
    out += ")";
  }
  return out + "\n);\n";
}

}  // namespace floe
