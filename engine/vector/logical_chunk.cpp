#include "engine/vector/logical_chunk.h"

#include <utility>

#include "runtime/vector/row_gather.h"

namespace floe::vectorized {

LogicalChunk LogicalChunk::wrap(const DataChunk& chunk, size_t width) {
  LogicalChunk wrapped(chunk.extent(), chunk.capacity());
  const size_t group = wrapped.add_group(nullptr);
  for (size_t c = 0; c < width; ++c) wrapped.add_column(chunk.column(c).view(), group);
  return wrapped;
}

LogicalChunk LogicalChunk::view(size_t width) const {
  LogicalChunk viewed(count_, capacity_);
  for (size_t g = 0; g < groups_.size(); ++g) viewed.add_group(group_index(g));
  for (size_t c = 0; c < width; ++c) viewed.add_column(columns_[c].view(), column_groups_[c]);
  return viewed;
}

size_t LogicalChunk::add_group(const uint32_t* index) {
  groups_.push_back({index, {}, false});
  return groups_.size() - 1;
}

void LogicalChunk::add_column(Vector column, size_t group) {
  columns_.push_back(std::move(column));
  column_groups_.push_back(group);
}

void LogicalChunk::select(const uint32_t* rows, uint32_t n) {
  for (Group& group : groups_) {
    const uint32_t* index = group.is_owned ? group.owned.data() : group.external;
    std::vector<uint32_t> narrowed(n);
    for (uint32_t i = 0; i < n; ++i) narrowed[i] = index ? index[rows[i]] : rows[i];
    group.owned = std::move(narrowed);
    group.is_owned = true;
  }
  count_ = n;
}

DataChunk LogicalChunk::materialize(const std::set<size_t>& columns) const {
  DataChunk plain(capacity_);
  for (size_t c = 0; c < columns_.size(); ++c) {
    const uint32_t* positions = index(c);
    if (!positions || !columns.contains(c)) {
      plain.add_column(columns_[c].view());
      continue;
    }
    Vector copied(columns_[c].type(), count_);
    take_values(columns_[c], positions, count_, copied);
    plain.add_column(std::move(copied));
  }
  plain.set_count(count_);
  return plain;
}

DataChunk LogicalChunk::flatten() const {
  std::set<size_t> all;
  for (size_t c = 0; c < columns_.size(); ++c) all.insert(c);
  return materialize(all);
}

}  // namespace floe::vectorized
