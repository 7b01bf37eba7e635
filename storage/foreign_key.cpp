#include "storage/foreign_key.h"

#include <unordered_map>

#include "storage/art_key.h"
#include "storage/catalog.h"
#include "storage/error.h"
#include "storage/identifier.h"

namespace floe {

const UniqueIndex& referenced_index(const ForeignKey& key) {
  for (const auto& index : key.referenced->unique_indexes())
    if (index->constraint().columns == key.referenced_columns) return *index;
  throw Error("internal error: foreign key \"" + key.name + "\" lost its referenced index");
}

std::vector<ReferentialAction> referential_actions(const Catalog& catalog, const Table& referenced,
                                                   const std::vector<uint64_t>& rows, bool update) {
  std::vector<ReferentialAction> actions;
  for (auto [table, key] : catalog.references_to(referenced)) {
    const UniqueIndex& index = referenced_index(*key);
    std::unordered_map<std::string, uint64_t> changed;  // key -> referenced row
    for (uint64_t row : rows) {
      std::string bytes;
      if (index.row_key(row, bytes)) changed.emplace(std::move(bytes), row);
    }
    if (changed.empty()) continue;
    ReferentialAction action{table, key, update ? key->on_update : key->on_delete, {}};
    for (size_t c = 0; c < table->chunk_count(); ++c) {
      for (uint32_t r = 0; r < table->chunk(c).size(); ++r) {
        const uint64_t row_id = uint64_t{c} << kChunkShift | r;
        std::string bytes;
        bool has_null = false;
        for (size_t i = 0; i < key->columns.size() && !has_null; ++i) {
          Value value = table->value_at(row_id, key->columns[i]);
          has_null = value.is_null();
          if (!has_null)
            append_key_part(bytes, referenced.columns()[key->referenced_columns[i]].type,
                            cast_value(value, referenced.columns()[key->referenced_columns[i]].type));
        }
        auto it = has_null ? changed.end() : changed.find(bytes);
        if (it == changed.end()) continue;
        if (action.action == ForeignKeyAction::kNoAction ||
            action.action == ForeignKeyAction::kRestrict) {
          std::string columns, values;
          for (size_t i = 0; i < key->referenced_columns.size(); ++i) {
            const size_t column = key->referenced_columns[i];
            columns += (i ? ", " : "") + quote_identifier(referenced.columns()[column].name);
            values += (i ? ", " : "") + referenced.value_at(it->second, column).to_string();
          }
          throw Error("update or delete on table \"" + referenced.name() +
                      "\" violates foreign key constraint \"" + key->name + "\" on table \"" +
                      table->name() + "\"\nDETAIL:  Key (" + columns + ")=(" + values +
                      ") is still referenced from table \"" + table->name() + "\".");
        }
        action.rows.push_back(row_id);
      }
    }
    if (!action.rows.empty()) actions.push_back(std::move(action));
  }
  return actions;
}

}  // namespace floe
