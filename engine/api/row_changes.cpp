#include "engine/api/row_changes.h"

#include <algorithm>

#include "engine/txn/transaction.h"
#include "storage/foreign_key.h"

namespace floe {

namespace {

bool contains_any(const std::vector<size_t>& columns, const std::vector<uint32_t>& changed) {
  return std::any_of(columns.begin(), columns.end(), [&](size_t column) {
    return std::find(changed.begin(), changed.end(), column) != changed.end();
  });
}

// Whether the transaction's snapshot sees the row deleted (by itself, earlier in the
// statement: a cascade may reach a row twice).
bool deleted_for(const Table& table, uint64_t row_id, const Snapshot& snapshot) {
  if (!table.row_deleted(row_id)) return false;
  const ChunkVersions& versions = *table.chunk(row_id >> kChunkShift).versions();
  return !visible_version(versions, static_cast<uint32_t>(row_id & (kChunkCapacity - 1)), snapshot)
              .exists;
}

}  // namespace

std::vector<Value> RowChanges::read_row(const Table& table, uint64_t row_id) {
  std::vector<Value> row;
  for (size_t c = 0; c < table.columns().size(); ++c) row.push_back(table.value_at(row_id, c));
  return row;
}

const RowConstraints& RowChanges::constraints(const Table& table) {
  auto& bound = constraints_[&table];
  if (!bound) bound = std::make_unique<RowConstraints>(table, context_.catalog);
  return *bound;
}

const RowChanges::References& RowChanges::references_to(const Table& table) {
  auto found = references_.find(&table);
  if (found == references_.end())
    found = references_.emplace(&table, context_.catalog.references_to(table)).first;
  return found->second;
}

void RowChanges::update_row(Table& table, uint64_t row_id, const std::vector<uint32_t>& columns,
                            std::vector<Value> values) {
  Transaction& transaction = *context_.transaction;
  // A row that a cascade of this statement deleted before (as update_rows skips it).
  if (deleted_for(table, row_id, transaction.snapshot())) return;
  const bool lean = [&] {
    if (constraints(table).has_checks()) return false;
    for (size_t i = 0; i < columns.size(); ++i) {
      const ColumnDef& column = table.columns()[columns[i]];
      if (!(values[i].type() == column.type)) values[i] = cast_value(values[i], column.type);
      if (values[i].is_null() && !column.nullable) return false;  // the error names the row
    }
    for (const ForeignKey& key : table.constraints().foreign_keys)
      if (contains_any(key.columns, columns)) return false;
    for (const auto& [referencing, key] : references_to(table))
      if (contains_any(key->referenced_columns, columns)) return false;
    return true;
  }();
  if (!lean) {
    update_rows(table, {row_id}, columns, {std::move(values)});
    return;
  }
  transaction.update_row(table, row_id, columns, values);
}

void RowChanges::insert_rows(Table& table, const std::vector<std::vector<Value>>& rows,
                             const RowConstraints& constraints, bool freeze_full_chunks) {
  auto append = [&] {
    TableAppender appender(table);
    for (const auto& row : rows) appender.append_row(row);
    for (const auto& row : rows) constraints.check_foreign_keys(row);
  };
  Transaction* transaction = context_.transaction;
  if (!transaction) {
    const uint64_t old_count = table.row_count();
    try {
      append();
    } catch (...) {
      table.truncate(old_count);
      throw;
    }
    if (freeze_full_chunks) table.freeze_full_chunks();
    return;
  }
  Transaction::Append recorded(*transaction, table);  // a failure: the rollback takes them back
  append();
  // Freezing replaces chunks that readers beside may be reading: only when none runs.
  if (freeze_full_chunks) transaction->try_without_readers([&] { table.freeze_full_chunks(); });
}

void RowChanges::delete_rows(Table& table, const std::vector<uint64_t>& rows) {
  Transaction& transaction = *context_.transaction;
  std::vector<uint64_t> deleted;
  for (uint64_t row_id : rows) {
    if (deleted_for(table, row_id, transaction.snapshot())) continue;
    transaction.delete_row(table, row_id);
    deleted.push_back(row_id);
  }
  // After the deletes, so that referencing rows deleted with them (a self-reference) count
  // no more, as in PostgreSQL, which checks NO ACTION at the end of the statement.
  if (deleted.empty() || references_to(table).empty()) return;
  apply_actions(
      referential_actions(context_.catalog, table, deleted, false, transaction.snapshot()),
      nullptr);
}

std::vector<std::vector<Value>> RowChanges::update_rows(
    Table& table, const std::vector<uint64_t>& target_rows, const std::vector<uint32_t>& columns,
    std::vector<std::vector<Value>> target_values, std::vector<uint64_t>* new_row_ids) {
  Transaction& transaction = *context_.transaction;
  const RowConstraints& checks = constraints(table);
  std::vector<uint64_t> rows;
  std::vector<std::vector<Value>> values, new_rows;
  for (size_t r = 0; r < target_rows.size(); ++r) {
    // A row that a cascade of this statement deleted before (two foreign keys, one CASCADE).
    if (deleted_for(table, target_rows[r], transaction.snapshot())) continue;
    rows.push_back(target_rows[r]);
    values.push_back(std::move(target_values[r]));
  }
  std::vector<std::vector<Value>> old_rows;
  for (size_t r = 0; r < rows.size(); ++r) {
    std::vector<Value>& row = new_rows.emplace_back(read_row(table, rows[r]));
    old_rows.push_back(row);
    for (size_t i = 0; i < columns.size(); ++i) {
      values[r][i] = cast_value(values[r][i], table.columns()[columns[i]].type);
      row[columns[i]] = values[r][i];
    }
    checks.check_row(row);
  }
  // Per foreign key that references this table, the rows whose referenced key changes: their
  // referencing rows are found before the change, by the old keys.
  std::vector<ReferentialAction> actions;
  for (auto [referencing, key] : references_to(table)) {
    std::vector<uint64_t> rekeyed;
    for (size_t r = 0; r < rows.size(); ++r)
      for (size_t column : key->referenced_columns)
        if (!(old_rows[r][column] == new_rows[r][column])) {
          rekeyed.push_back(rows[r]);
          break;
        }
    if (rekeyed.empty()) continue;
    ReferentialAction action =
        referential_action(*referencing, *key, rekeyed, true, transaction.snapshot());
    if (!action.rows.empty()) actions.push_back(std::move(action));
  }
  ReferencedRows rekeyed_rows;
  for (size_t r = 0; r < rows.size(); ++r) {
    const uint64_t new_row_id = transaction.update_row(table, rows[r], columns, values[r]);
    if (new_row_ids) new_row_ids->push_back(new_row_id);
    rekeyed_rows.emplace(rows[r], &new_rows[r]);
  }
  apply_actions(std::move(actions), &rekeyed_rows);
  // This table's foreign keys on the new values, once every change (of a self-reference
  // too) is in.
  for (const ForeignKey& key : table.constraints().foreign_keys) {
    if (!contains_any(key.columns, columns)) continue;
    for (const std::vector<Value>& row : new_rows) checks.check_foreign_key(row, key);
  }
  return new_rows;
}

void RowChanges::apply_actions(std::vector<ReferentialAction> actions,
                               const ReferencedRows* new_rows) {
  for (ReferentialAction& action : actions) {
    Table& table = *action.table;
    if (action.action == ForeignKeyAction::kCascade && !new_rows) {
      delete_rows(table, action.rows);
      continue;
    }
    const ForeignKey& key = *action.key;
    const std::vector<uint32_t> columns(key.columns.begin(), key.columns.end());
    std::vector<std::vector<Value>> values;
    for (size_t r = 0; r < action.rows.size(); ++r) {
      std::vector<Value>& row = values.emplace_back();
      for (size_t i = 0; i < columns.size(); ++i) {
        if (action.action == ForeignKeyAction::kCascade)
          row.push_back((*new_rows->at(action.referenced_rows[r]))[key.referenced_columns[i]]);
        else if (action.action == ForeignKeyAction::kSetNull)
          row.push_back(Value::null(table.columns()[columns[i]].type));
        else
          row.push_back(constraints(table).default_value(columns[i]));
      }
    }
    update_rows(table, action.rows, columns, std::move(values));
  }
}

}  // namespace floe
