#include "storage/unique_index.h"

#include <algorithm>

#include <tbb/parallel_for.h>

#include "storage/art_key.h"
#include "storage/error.h"
#include "storage/identifier.h"
#include "storage/table.h"

namespace floe {

namespace {

constexpr char kValuePart = 0x00;  // a key part holding a value
constexpr char kNullPart = 0x01;   // a NULL key part: after every value

void append_row_id(std::string& key, uint64_t row_id) {
  for (int shift = 56; shift >= 0; shift -= 8) key.push_back(static_cast<char>(row_id >> shift));
}

// The key of the row that insert and erase work on: one buffer per thread, so that index
// maintenance allocates nothing once it has grown (neither reenters the other).
std::string& row_key_buffer() {
  thread_local std::string buffer;
  buffer.clear();
  return buffer;
}

}  // namespace

// Drops trailing 0xFF bytes, then increments the last byte.
std::optional<std::string> UniqueIndex::successor(std::string prefix) {
  while (!prefix.empty() && static_cast<unsigned char>(prefix.back()) == 0xFF) prefix.pop_back();
  if (prefix.empty()) return std::nullopt;
  prefix.back() = static_cast<char>(static_cast<unsigned char>(prefix.back()) + 1);
  return prefix;
}

UniqueIndex::UniqueIndex(const Table& table, KeyConstraint constraint)
    : table_(table),
      constraint_(std::move(constraint)),
      tree_(constraint_.unique,
            [this](uint64_t row_id, std::string& key) { row_key(row_id, key); }) {}

void UniqueIndex::row_key(uint64_t row_id, std::string& key) const {
  const TableChunk& chunk = table_.chunk(row_id >> kChunkShift);
  const auto row = static_cast<uint32_t>(row_id & (kChunkCapacity - 1));
  bool has_null = false;
  for (size_t column : constraint_.columns) {
    const SqlType& type = table_.columns()[column].type;
    alignas(16) uint8_t physical[16];
    if (!chunk.physical_value(row, column, type.physical(), physical)) {
      key.push_back(kNullPart);
      has_null = true;
    } else {
      key.push_back(kValuePart);
      append_key_part(key, type, physical);
    }
  }
  if (has_null && constraint_.unique) append_row_id(key, row_id);
}

std::string UniqueIndex::key_of(const std::vector<Value>& values) const {
  std::string key;
  for (size_t i = 0; i < values.size(); ++i) {
    key.push_back(kValuePart);
    append_key_part(key, table_.columns()[constraint_.columns[i]].type, values[i]);
  }
  return key;
}

void UniqueIndex::append_part(std::string& key, size_t part, const void* physical) const {
  key.push_back(kValuePart);
  append_key_part(key, table_.columns()[constraint_.columns[part]].type, physical);
}

bool UniqueIndex::key_range(std::optional<std::string> low, bool low_inclusive,
                            std::optional<std::string> high, bool high_inclusive,
                            std::optional<std::string>& start, std::optional<std::string>& stop) {
  if (low && !low_inclusive && !(low = successor(std::move(*low)))) return false;
  if (high && high_inclusive) {
    high = successor(std::move(*high));  // none: every key from `low` on
  } else if (high && high->empty()) {
    return false;
  }
  start = std::move(low);
  stop = std::move(high);
  return true;
}

void UniqueIndex::scan(const std::optional<IndexBound>& low, const std::optional<IndexBound>& high,
                       const std::function<bool(uint64_t row_id)>& visit) const {
  if (unique() && low && high && low->inclusive && high->inclusive &&
      low->prefix.size() == constraint_.columns.size() && low->prefix == high->prefix) {
    // One whole key of a unique index (a primary-key lookup): one descent to its holder,
    // instead of an iterator that loads the key of each entry it passes to compare it.
    for (std::optional<uint64_t> row = find(key_of(low->prefix)); row; row = predecessor(*row))
      if (!visit(*row)) return;
    return;
  }
  std::optional<std::string> start, stop;
  if (key_range(low ? std::optional(key_of(low->prefix)) : std::nullopt, low && low->inclusive,
                high ? std::optional(key_of(high->prefix)) : std::nullopt,
                high && high->inclusive, start, stop))
    scan_keys(start, stop, visit);
}

size_t UniqueIndex::size() const {
  std::shared_lock latch(latch_);
  return tree_.size();
}

std::optional<uint64_t> UniqueIndex::find(std::string_view key) const {
  std::shared_lock latch(latch_);
  return tree_.find(key);
}

void UniqueIndex::scan_keys(std::optional<std::string_view> start,
                            std::optional<std::string_view> stop,
                            const std::function<bool(uint64_t row_id)>& visit) const {
  // Batches grow, so that a short scan gathers little and a long one seeks rarely.
  size_t batch_entries = kMinimumScanBatch;
  std::optional<std::string> resume(start);
  std::vector<uint64_t> batch;
  bool more = true;
  while (more) {
    batch.clear();
    {
      std::shared_lock latch(latch_);
      Art::Iterator it = resume ? tree_.lower_bound(*resume) : tree_.begin();
      more = false;
      for (size_t entries = 0; it.valid(); it.next()) {
        if (stop && it.key() >= *stop) break;
        batch.push_back(it.row_id());
        for (std::optional<uint64_t> older = predecessor_of(it.row_id()); older;
             older = predecessor_of(*older))
          batch.push_back(*older);
        if (++entries < batch_entries) continue;
        // The batch is full: resume after this entry's whole key as stored (keys are
        // prefix-free, so its successor is above it and at or below every later key).
        std::string key(it.key());
        if (!unique()) append_row_id(key, it.row_id());
        resume = successor(std::move(key));
        more = resume.has_value();
        break;
      }
    }
    for (uint64_t row_id : batch)
      if (!visit(row_id)) return;
    batch_entries = std::min(2 * batch_entries, kMaximumScanBatch);
  }
}

std::optional<uint64_t> UniqueIndex::predecessor(uint64_t row_id) const {
  std::shared_lock latch(latch_);
  return predecessor_of(row_id);
}

std::optional<uint64_t> UniqueIndex::predecessor_of(uint64_t row_id) const {
  if (predecessors_.empty()) return std::nullopt;
  auto found = predecessors_.find(row_id);
  if (found == predecessors_.end()) return std::nullopt;
  return found->second;
}

std::vector<uint64_t> UniqueIndex::lookup(const std::vector<Value>& prefix) const {
  std::vector<uint64_t> rows;
  const IndexBound bound{prefix, true};
  scan(bound, bound, [&](uint64_t row_id) {
    rows.push_back(row_id);
    return true;
  });
  return rows;
}

void UniqueIndex::insert(uint64_t row_id) {
  std::string& key = row_key_buffer();
  row_key(row_id, key);
  std::unique_lock latch(latch_);
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
  if (head) remember_predecessor(row_id, *holder);
}

void UniqueIndex::remember_predecessor(uint64_t row_id, uint64_t holder) {
  predecessors_[row_id] = holder;
  if (predecessors_.size() < prune_at_) return;
  std::erase_if(predecessors_, [&](const auto& entry) {
    return !deleted_row_visible_to_some(entry.second);
  });
  prune_at_ = std::max(kMinimumPrune, 2 * predecessors_.size());
}

bool UniqueIndex::deleted_row_visible_to_some(uint64_t row_id) const {
  const ChunkVersions* versions = table_.chunk(row_id >> kChunkShift).versions();
  // Garbage collection cuts a row's chain once every running snapshot sees its newest change.
  return versions && versions->head(static_cast<uint32_t>(row_id & (kChunkCapacity - 1)));
}

void UniqueIndex::erase(uint64_t row_id) {
  std::string& key = row_key_buffer();
  row_key(row_id, key);
  std::unique_lock latch(latch_);
  if (!tree_.erase(key, row_id)) return;
  auto taken = predecessors_.find(row_id);
  if (taken == predecessors_.end()) return;
  // The predecessor gets its key back while a snapshot may see it (a rolled-back insert that
  // took the key from a row its own transaction deleted), not once it is dead.
  if (deleted_row_visible_to_some(taken->second)) tree_.insert(key, taken->second);
  predecessors_.erase(taken);
}

void UniqueIndex::clear() {
  std::unique_lock latch(latch_);
  tree_.clear();
  predecessors_.clear();
  prune_at_ = kMinimumPrune;
}

std::optional<uint64_t> UniqueIndex::build_tree() {
  // The keys of each chunk in one buffer, encoded in parallel from whole decoded columns.
  struct ChunkKeys {
    std::string bytes;
    std::vector<uint32_t> ends;  // per row of the chunk
    std::vector<bool> deleted;   // per row of the chunk: no entry
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
    const ChunkVersions* versions = chunk.versions();
    keys.deleted.resize(rows);
    for (uint32_t row = 0; row < rows; ++row) {
      // A deleted row holds no key (MVCC: its delete committed, or the index is rebuilt
      // meanwhile; storage/row_versions.h).
      if (versions && versions->deleted(row)) {
        keys.deleted[row] = true;
        keys.ends[row] = static_cast<uint32_t>(keys.bytes.size());
        continue;
      }
      bool has_null = false;
      for (size_t k = 0; k < key_columns; ++k) {
        const SqlType& type = table_.columns()[constraint_.columns[k]].type;
        if (arrays[k].validity && !(arrays[k].validity[row >> 6] >> (row & 63) & 1)) {
          keys.bytes.push_back(kNullPart);
          has_null = true;
        } else {
          keys.bytes.push_back(kValuePart);
          append_key_part(keys.bytes, type, arrays[k].data + physical_size(type.physical()) * row);
        }
      }
      if (has_null && constraint_.unique)
        append_row_id(keys.bytes, uint64_t{c} << kChunkShift | row);
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
      if (!chunks[c].deleted[row])
        entries.push_back({bytes.substr(begin, end - begin), uint64_t{c} << kChunkShift | row});
      begin = end;
    }
  }
  return tree_.build(std::move(entries));
}

std::optional<uint64_t> UniqueIndex::rebuild() {
  std::unique_lock latch(latch_);
  predecessors_.clear();
  return build_tree();
}

void UniqueIndex::build() {
  if (std::optional<uint64_t> duplicate = rebuild()) throw_violation(*duplicate);
}

void UniqueIndex::create() {
  if (std::optional<uint64_t> duplicate = rebuild()) {
    auto [columns, values] = key_text(*duplicate);
    throw Error("could not create unique index \"" + constraint_.name + "\"\nDETAIL:  Key (" +
                columns + ")=(" + values + ") is duplicated.");
  }
}

std::pair<std::string, std::string> UniqueIndex::key_text(uint64_t row_id) const {
  std::string columns, values;
  for (size_t column : constraint_.columns) {
    if (!columns.empty()) columns += ", ", values += ", ";
    columns += quote_identifier(table_.columns()[column].name);
    values += table_.value_at(row_id, column).to_string();
  }
  return {columns, values};
}

void UniqueIndex::throw_violation(uint64_t row_id) const {
  auto [columns, values] = key_text(row_id);
  throw Error("duplicate key value violates unique constraint \"" + constraint_.name +
              "\"\nDETAIL:  Key (" + columns + ")=(" + values + ") already exists.");
}

}  // namespace floe
