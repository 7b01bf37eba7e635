// A chunk with extended selection vectors (chunk compaction, SIGMOD 2024, §5.1): the output
// of a hash join under logical compaction. Its columns fall into groups; each group has its
// own index (an extended selection vector: unsorted, repeats allowed), and row r's value of
// a column is the column's value at position index[r] of its group (r itself for a group
// without index). The rows are 0..count(), all of them valid.
//
// A join probe adds one group per join (the build columns, gathered densely) and references
// the probe columns through a new index instead of copying them; a filter narrows every
// group's index (§5.2, sel'[i] = sel[res[i]]). Operators that only read plain DataChunks get
// the chunk flattened (ChunkConsumer::consume_logical), which copies the indexed columns then,
// once.
#pragma once

#include <cstdint>
#include <set>
#include <vector>

#include "runtime/vector/vector.h"

namespace floe::vectorized {

class LogicalChunk {
 public:
  // `capacity`: that of the plain chunks it becomes (DataChunk::capacity()).
  LogicalChunk(uint32_t count, uint32_t capacity) : count_(count), capacity_(capacity) {}
  // The plain chunk's columns as views in one group without index, one row per position
  // 0..extent() (selected or not), for select() by position (a join probe's pairs): nothing
  // is copied.
  // Of the chunk's columns the first `width`.
  static LogicalChunk wrap(const DataChunk& chunk, size_t width);
  // A chunk of views of this one's first `width` columns in the same groups, which share
  // this one's indexes until select() replaces them.
  LogicalChunk view(size_t width) const;

  uint32_t count() const { return count_; }
  size_t column_count() const { return columns_.size(); }
  const Vector& column(size_t c) const { return columns_[c]; }
  // Column c's index (null: row r is position r).
  const uint32_t* index(size_t c) const { return group_index(column_groups_[c]); }
  // The number of extended selection vectors.
  size_t group_count() const { return groups_.size(); }

  // A new group with `index` (null: none; else count() entries that must outlive the chunk
  // or be replaced by select()); returns its number.
  size_t add_group(const uint32_t* index);
  void add_column(Vector column, size_t group);

  // Keeps rows rows[0..n) (in that order, repeats allowed): every group's index is narrowed.
  void select(const uint32_t* rows, uint32_t n);

  // The rows as a plain chunk (positions 0..count(), no selection) in which the `columns`
  // can be read (copied where indexed); the others are placeholders not to be read.
  DataChunk materialize(const std::set<size_t>& columns) const;
  // Every column materialized.
  DataChunk flatten() const;

 private:
  struct Group {
    const uint32_t* external = nullptr;
    std::vector<uint32_t> owned;
    bool is_owned = false;
  };
  const uint32_t* group_index(size_t g) const {
    return groups_[g].is_owned ? groups_[g].owned.data() : groups_[g].external;
  }

  uint32_t count_;
  uint32_t capacity_;
  std::vector<Vector> columns_;
  std::vector<size_t> column_groups_;
  std::vector<Group> groups_;
};

}  // namespace floe::vectorized
