#include "engine/txn/serializable_validation.h"

#include <optional>

namespace floe {

namespace {

// The version of a row that a reader at commit timestamp `as_of` saw, or nullopt when the
// row did not exist for it.
std::optional<RowVersion> version_as_of(const Table& table, uint64_t row_id, uint64_t as_of) {
  const ChunkVersions* versions = table.chunk(row_id >> kChunkShift).versions();
  if (!versions) return RowVersion{};
  RowVersion version = visible_version(
      *versions, static_cast<uint32_t>(row_id & (kChunkCapacity - 1)), Snapshot{as_of, 0});
  if (!version.exists) return std::nullopt;
  return version;
}

// Whether the row's version as of `as_of` exists and satisfies a predicate of `reads`.
bool version_read(const PredicateLog& reads, const Table& table, uint64_t row_id, uint64_t as_of) {
  std::optional<RowVersion> version = version_as_of(table, row_id, as_of);
  if (!version) return false;
  const TableChunk& chunk = table.chunk(row_id >> kChunkShift);
  const auto row = static_cast<uint32_t>(row_id & (kChunkCapacity - 1));
  return reads.reads(table, [&](size_t column) {
    if (const Value* before = version->before_image(column)) return *before;
    return chunk.value(row, column, table.columns()[column].type);
  });
}

}  // namespace

bool reads_changes_of(const PredicateLog& reads, const Transaction& committed) {
  const uint64_t timestamp = committed.commit_timestamp();
  for (const UndoEntry& entry : committed.changes()) {
    const Table& table = *entry.table;
    if (!reads.reads_table(table)) continue;
    for (uint64_t row_id = entry.row_id; row_id < entry.row_id + entry.count; ++row_id) {
      // Before the change (an insert has no before) and after it (a delete has no after).
      if (version_read(reads, table, row_id, timestamp - 1)) return true;
      if (version_read(reads, table, row_id, timestamp)) return true;
    }
  }
  return false;
}

}  // namespace floe
