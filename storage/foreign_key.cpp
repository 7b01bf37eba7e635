#include "storage/foreign_key.h"

#include <algorithm>
#include <unordered_map>

#include "storage/catalog.h"
#include "storage/error.h"
#include "storage/identifier.h"

namespace floe {

const UniqueIndex& referenced_index(const ForeignKey& key) {
  std::vector<size_t> wanted = key.referenced_columns;
  std::sort(wanted.begin(), wanted.end());
  for (const auto& index : key.referenced->unique_indexes()) {
    if (!index->unique()) continue;
    std::vector<size_t> have = index->constraint().columns;
    std::sort(have.begin(), have.end());
    if (have == wanted) return *index;
  }
  throw Error("internal error: foreign key \"" + key.name + "\" lost its referenced index");
}

std::optional<std::string> referenced_key(const ForeignKey& key, const UniqueIndex& index,
                                          const std::vector<Value>& values) {
  std::vector<Value> ordered;  // in the index's column order, of the referenced types
  for (size_t column : index.constraint().columns) {
    const size_t i = static_cast<size_t>(
        std::find(key.referenced_columns.begin(), key.referenced_columns.end(), column) -
        key.referenced_columns.begin());
    try {
      ordered.push_back(cast_value(values[i], key.referenced->columns()[column].type));
    } catch (const Error&) {
      return std::nullopt;
    }
  }
  return index.key_of(ordered);
}

namespace {

// Whether a referencing row counts (referential_actions).
bool row_counts(const Table& table, uint64_t row_id, const Snapshot& snapshot) {
  if (!table.row_deleted(row_id)) return true;
  const ChunkVersions& versions = *table.chunk(row_id >> kChunkShift).versions();
  return visible_version(versions, static_cast<uint32_t>(row_id & (kChunkCapacity - 1)), snapshot)
      .exists;
}

}  // namespace

ReferentialAction referential_action(Table& table, const ForeignKey& foreign_key,
                                     const std::vector<uint64_t>& rows, bool update,
                                     const Snapshot& snapshot) {
  const ForeignKey* key = &foreign_key;  // the action's
  const Table& referenced = *key->referenced;
  ReferentialAction action{&table, key, update ? key->on_update : key->on_delete, {}, {}};
  const UniqueIndex& index = referenced_index(*key);
  std::unordered_map<std::string, uint64_t> changed;  // key -> referenced row
  for (uint64_t row : rows) {
    // A referenced row with a NULL key column is referenced by nothing (MATCH SIMPLE).
    const auto& columns = index.constraint().columns;
    if (std::any_of(columns.begin(), columns.end(),
                    [&](size_t column) { return referenced.value_at(row, column).is_null(); }))
      continue;
    std::string bytes;
    index.row_key(row, bytes);
    changed.emplace(std::move(bytes), row);
  }
  if (changed.empty()) return action;
  for (size_t c = 0; c < table.chunk_count(); ++c) {
    for (uint32_t r = 0; r < table.chunk(c).size(); ++r) {
      const uint64_t row_id = uint64_t{c} << kChunkShift | r;
      if (!row_counts(table, row_id, snapshot)) continue;
      std::vector<Value> values;
      for (size_t column : key->columns) values.push_back(table.value_at(row_id, column));
      if (std::any_of(values.begin(), values.end(), [](const Value& v) { return v.is_null(); }))
        continue;
      std::optional<std::string> bytes = referenced_key(*key, index, values);
      auto it = bytes ? changed.find(*bytes) : changed.end();
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
                    table.name() + "\"\nDETAIL:  Key (" + columns + ")=(" + values +
                    ") is still referenced from table \"" + table.name() + "\".");
      }
      action.rows.push_back(row_id);
      action.referenced_rows.push_back(it->second);
    }
  }
  return action;
}

std::vector<ReferentialAction> referential_actions(const Catalog& catalog, const Table& referenced,
                                                   const std::vector<uint64_t>& rows, bool update,
                                                   const Snapshot& snapshot) {
  std::vector<ReferentialAction> actions;
  for (auto [table, key] : catalog.references_to(referenced)) {
    ReferentialAction action = referential_action(*table, *key, rows, update, snapshot);
    if (!action.rows.empty()) actions.push_back(std::move(action));
  }
  return actions;
}

}  // namespace floe
