#include "storage/unique_index.h"

#include <tbb/parallel_for.h>

#include "storage/art_key.h"
#include "storage/error.h"
#include "storage/identifier.h"
#include "storage/table.h"

namespace floe {

UniqueIndex::UniqueIndex(const Table& table, KeyConstraint constraint)
    : table_(table),
      constraint_(std::move(constraint)),
      tree_(true, [this](uint64_t row_id, std::string& key) { row_key(row_id, key); }) {}

bool UniqueIndex::row_key(uint64_t row_id, std::string& key) const {
  const TableChunk& chunk = table_.chunk(row_id >> kChunkShift);
  const auto row = static_cast<uint32_t>(row_id & (kChunkCapacity - 1));
  for (size_t column : constraint_.columns) {
    const SqlType& type = table_.columns()[column].type;
    alignas(16) uint8_t physical[16];
    if (!chunk.physical_value(row, column, type.physical(), physical)) return false;
    append_key_part(key, type, physical);
  }
  return true;
}

std::string UniqueIndex::key_of(const std::vector<Value>& values) const {
  std::string key;
  for (size_t i = 0; i < constraint_.columns.size(); ++i)
    append_key_part(key, table_.columns()[constraint_.columns[i]].type, values[i]);
  return key;
}

void UniqueIndex::insert(uint64_t row_id) {
  std::string key;
  if (!row_key(row_id, key)) return;
  std::optional<uint64_t> holder = tree_.insert(key, row_id);
  if (!holder || *holder == row_id) return;
  if (!table_.row_deleted(*holder)) throw_violation(row_id);
  // A deleted row gives its key up (MVCC, storage/row_versions.h), unless a transaction that
  // is still running deleted it: that one may roll back and want the key again.
  const ChunkVersions& versions = *table_.chunk(*holder >> kChunkShift).versions();
  const UndoEntry* head = versions.head(static_cast<uint32_t>(*holder & (kChunkCapacity - 1)));
  if (head) {
    const uint64_t timestamp = head->timestamp.load(std::memory_order_acquire);
    if (timestamp >= kTransactionIdBase && timestamp != current_writer())
      throw SerializationFailure();
  }
  tree_.erase(key, *holder);
  tree_.insert(key, row_id);
}

void UniqueIndex::erase(uint64_t row_id) {
  std::string key;
  if (row_key(row_id, key)) tree_.erase(key, row_id);
}

void UniqueIndex::build() {
  // The keys of each chunk in one buffer, encoded in parallel from whole decoded columns.
  struct ChunkKeys {
    std::string bytes;
    std::vector<uint32_t> ends;  // per row of the chunk; a NULL key adds no bytes
    std::vector<bool> null;
  };
  std::vector<ChunkKeys> chunks(table_.chunk_count());
  tbb::parallel_for(size_t{0}, chunks.size(), [&](size_t c) {
    const TableChunk& chunk = table_.chunk(c);
    const size_t key_columns = constraint_.columns.size();
    std::vector<TableChunk::Scratch> scratch(key_columns);
    std::vector<TableChunk::ColumnArray> arrays;
    for (size_t k = 0; k < key_columns; ++k) {
      const size_t column = constraint_.columns[k];
      arrays.push_back(
          chunk.read_column(column, table_.columns()[column].type.physical(), scratch[k]));
    }
    ChunkKeys& keys = chunks[c];
    const uint32_t rows = chunk.size();
    keys.ends.resize(rows);
    keys.null.resize(rows);
    const ChunkVersions* versions = chunk.versions();
    for (uint32_t row = 0; row < rows; ++row) {
      const size_t begin = keys.bytes.size();
      // A deleted row holds no key (like a NULL key: no entry).
      if (versions && versions->deleted(row)) keys.null[row] = true;
      for (size_t k = 0; k < key_columns && !keys.null[row]; ++k) {
        const SqlType& type = table_.columns()[constraint_.columns[k]].type;
        if (arrays[k].validity && !(arrays[k].validity[row >> 6] >> (row & 63) & 1)) {
          keys.null[row] = true;
          keys.bytes.resize(begin);
        } else {
          append_key_part(keys.bytes, type, arrays[k].data + physical_size(type.physical()) * row);
        }
      }
      keys.ends[row] = static_cast<uint32_t>(keys.bytes.size());
    }
  });
  std::vector<Art::Entry> entries;
  entries.reserve(table_.row_count());
  for (size_t c = 0; c < chunks.size(); ++c) {
    std::string_view bytes = chunks[c].bytes;
    uint32_t begin = 0;
    for (uint32_t row = 0; row < chunks[c].ends.size(); ++row) {
      uint32_t end = chunks[c].ends[row];
      if (!chunks[c].null[row])
        entries.push_back({bytes.substr(begin, end - begin), uint64_t{c} << kChunkShift | row});
      begin = end;
    }
  }
  if (std::optional<uint64_t> duplicate = tree_.build(std::move(entries)))
    throw_violation(*duplicate);
}

void UniqueIndex::throw_violation(uint64_t row_id) const {
  std::string columns, values;
  for (size_t column : constraint_.columns) {
    if (!columns.empty()) columns += ", ", values += ", ";
    columns += quote_identifier(table_.columns()[column].name);
    values += table_.value_at(row_id, column).to_string();
  }
  throw Error("duplicate key value violates unique constraint \"" + constraint_.name +
              "\"\nDETAIL:  Key (" + columns + ")=(" + values + ") already exists.");
}

}  // namespace floe
