#include "storage/table.h"

#include <tbb/parallel_for.h>

#include <algorithm>
#include <cstring>

#include "storage/error.h"
#include "storage/table_statistics.h"

namespace floe {

Table::Table(std::string name, std::vector<ColumnDef> columns, std::vector<KeyConstraint> keys)
    : name_(std::move(name)), columns_(std::move(columns)) {
  constraints_.defaults.resize(columns_.size());
  set_keys(std::move(keys));
}

void Table::set_keys(std::vector<KeyConstraint> keys) {
  indexes_.clear();
  std::stable_partition(keys.begin(), keys.end(),
                        [](const KeyConstraint& key) { return key.primary; });
  for (KeyConstraint& key : keys)
    indexes_.push_back(std::make_unique<UniqueIndex>(*this, std::move(key)));
}

const std::vector<size_t>& Table::primary_key() const {
  static const std::vector<size_t> kNone;
  const UniqueIndex* primary = primary_index();
  return primary ? primary->constraint().columns : kNone;
}

const UniqueIndex* Table::primary_index() const {
  if (indexes_.empty() || !indexes_.front()->constraint().primary) return nullptr;
  return indexes_.front().get();
}

const UniqueIndex* Table::find_index(std::string_view name) const {
  for (const auto& index : indexes_)
    if (index->constraint().name == name) return index.get();
  return nullptr;
}

const UniqueIndex& Table::add_index(KeyConstraint index) {
  auto added = std::make_unique<UniqueIndex>(*this, std::move(index));
  added->create();
  indexes_.push_back(std::move(added));
  return *indexes_.back();
}

bool Table::drop_index(std::string_view name) {
  auto it = std::find_if(indexes_.begin(), indexes_.end(),
                         [&](const auto& index) { return index->constraint().name == name; });
  if (it == indexes_.end()) return false;
  indexes_.erase(it);
  return true;
}

std::optional<size_t> Table::find_column(std::string_view name) const {
  for (size_t i = 0; i < columns_.size(); ++i)
    if (columns_[i].name == name) return i;
  return std::nullopt;
}

HotChunk& Table::last_chunk_with_room() {
  if (chunks_.empty() || chunks_.back().frozen() || chunks_.back().hot()->full())
    chunks_.push_back(std::make_unique<TableChunk>(columns_));
  return *chunks_.back().hot();
}

void Table::change_columns(std::vector<ColumnDef> columns, std::vector<KeyConstraint> keys,
                           const std::vector<std::optional<size_t>>& sources,
                           const std::function<void(std::vector<Value>& row)>& complete,
                           TableConstraints constraints) {
  Table rebuilt(name_, std::move(columns), {});
  {
    TableAppender appender(rebuilt, IndexMaintenance::kDeferred);
    for (size_t c = 0; c < chunks_.size(); ++c) {
      const TableChunk* chunk = &chunks_[c];
      const ChunkVersions* versions = chunk->versions();
      uint32_t kept = 0;
      for (uint32_t row = 0; row < chunk->size(); ++row) {
        // Deleted rows are left behind (the caller made sure no transaction still needs them).
        if (versions && versions->deleted(row)) continue;
        std::vector<Value> values;
        for (size_t c = 0; c < rebuilt.columns_.size(); ++c)
          values.push_back(sources[c] ? chunk->value(row, *sources[c], columns_[*sources[c]].type)
                                      : Value::null(rebuilt.columns_[c].type));
        complete(values);
        appender.append_row(values);
        ++kept;
      }
      // The next chunk starts a chunk of its own, as here.
      if (chunk->frozen() && kept > 0) rebuilt.freeze_chunks({rebuilt.chunks_.size() - 1});
    }
  }
  columns_ = std::move(rebuilt.columns_);
  chunks_.swap(rebuilt.chunks_);  // the old chunks go with `rebuilt`
  constraints_ = std::move(constraints);
  constraints_.defaults.resize(columns_.size());
  set_keys(std::move(keys));
  build_indexes();
  count_changes(1);
  invalidate_statistics();
}

void Table::hide_appends() {
  // The row id the next append takes (last_chunk_with_room).
  const size_t chunks = chunks_.size();
  uint64_t next = uint64_t{chunks} << kChunkShift;
  if (chunks > 0 && !chunks_.back().frozen() && !chunks_.back().hot()->full())
    next = uint64_t{chunks - 1} << kChunkShift | chunks_.back().size();
  hidden_from_.store(next, std::memory_order_release);
}

void Table::truncate(uint64_t row_count) {
  const uint64_t old_row_count = this->row_count();
  if (row_count >= old_row_count) return;
  if (!indexes_.empty()) {
    // The removed rows' index entries go first, while their keys can still be read.
    uint64_t remaining = old_row_count;
    for (size_t c = chunks_.size(); c-- > 0 && remaining > row_count;) {
      const uint32_t size = chunks_[c].size();
      const uint32_t keep =
          remaining - size >= row_count ? 0 : static_cast<uint32_t>(row_count - (remaining - size));
      for (uint32_t row = keep; row < size; ++row)
        for (auto& index : indexes_) index->erase(uint64_t{c} << kChunkShift | row);
      remaining -= size;
    }
  }
  // The row count shrinks first, so that no reader starts on the rows taken back.
  row_count_.store(row_count, std::memory_order_release);
  uint64_t remaining = old_row_count;
  while (!chunks_.empty() && remaining - chunks_.back().size() >= row_count) {
    remaining -= chunks_.back().size();
    chunks_.pop_back();
  }
  if (remaining > row_count) {
    if (chunks_.back().frozen())
      throw Error("internal error: cannot take back rows of a frozen chunk of \"" + name_ + "\"");
    HotChunk& last = *chunks_.back().hot();
    last.truncate(static_cast<uint32_t>(last.size() - (remaining - row_count)));
  }
  count_changes(old_row_count - row_count);  // each removed row is a change
}

void Table::remove_all_rows() {
  row_count_.store(0, std::memory_order_release);
  chunks_.clear();
  for (auto& index : indexes_) index->clear();
  count_changes(1);
  invalidate_statistics();
}

void Table::freeze_chunks(const std::vector<size_t>& chunks, std::optional<size_t> sort_column) {
  tbb::parallel_for(size_t{0}, chunks.size(), [&](size_t i) {
    TableChunk& chunk = chunks_[chunks[i]];
    // Rows with version chains stay hot until garbage collection took the chains; a chunk
    // with deleted rows keeps its row order (its delete flags and index entries stay valid).
    const ChunkVersions* versions = chunk.versions();
    if (versions && versions->chained_rows()) return;
    if (!chunk.frozen() && chunk.size() > 0)
      chunk.freeze(columns_, versions ? std::nullopt : sort_column);
  });
  if (sort_column && !chunks.empty()) {
    for (auto& index : indexes_) index->clear();
    build_indexes();
  }
}

void Table::build_indexes() {
  for (size_t i = 0; i < indexes_.size(); ++i) {
    try {
      indexes_[i]->build();
    } catch (...) {
      for (size_t j = 0; j < i; ++j) indexes_[j]->clear();
      throw;
    }
  }
}

ChunkVersions& Table::versions_of(uint64_t row_id) {
  return chunks_[row_id >> kChunkShift].ensure_versions();
}

uint64_t Table::live_row_count() const {
  const uint64_t rows = row_count();
  uint64_t deleted = 0;
  for (size_t c = 0; c < chunks_.size(); ++c)
    if (const ChunkVersions* versions = chunks_[c].versions()) deleted += versions->deleted_rows();
  return rows - std::min(rows, deleted);
}

bool Table::row_deleted(uint64_t row_id) const {
  const ChunkVersions* versions = chunks_[row_id >> kChunkShift].versions();
  return versions && versions->deleted(static_cast<uint32_t>(row_id & (kChunkCapacity - 1)));
}

void Table::set_row_deleted(uint64_t row_id, bool deleted) {
  versions_of(row_id).set_deleted(static_cast<uint32_t>(row_id & (kChunkCapacity - 1)), deleted);
  count_changes(1);
}

void Table::write_row(uint64_t row_id, const std::vector<uint32_t>& columns,
                      const std::vector<Value>& values) {
  HotChunk* hot = chunks_[row_id >> kChunkShift].hot();
  if (!hot) throw Error("internal error: in-place update of a frozen row of \"" + name_ + "\"");
  const auto row = static_cast<uint32_t>(row_id & (kChunkCapacity - 1));
  for (size_t i = 0; i < columns.size(); ++i) {
    const size_t column = columns[i];
    const PhysicalType type = columns_[column].type.physical();
    const size_t width = physical_size(type);
    uint8_t* slot = hot->data(column) + width * row;
    uint64_t* validity = hot->validity(column);
    if (values[i].is_null()) {
      validity[row >> 6] &= ~(uint64_t{1} << (row & 63));
      std::memset(slot, 0, width);
      continue;
    }
    if (validity) validity[row >> 6] |= uint64_t{1} << (row & 63);
    alignas(16) uint8_t buffer[16];
    values[i].write_physical(buffer);
    if (type == PhysicalType::kString) {
      StringRef stored = hot->strings().store(reinterpret_cast<const StringRef*>(buffer)->view());
      std::memcpy(slot, &stored, sizeof stored);
    } else {
      std::memcpy(slot, buffer, width);
    }
  }
  count_changes(1);
}

void Table::unindex_row(uint64_t row_id) {
  for (auto& index : indexes_) index->erase(row_id);
}

void Table::note_dead_row(uint64_t row_id) {
  std::lock_guard lock(dead_rows_mutex_);
  dead_rows_.push_back(row_id);
}

void Table::unindex_dead_rows() {
  std::vector<uint64_t> dead;
  {
    std::lock_guard lock(dead_rows_mutex_);
    if (dead_rows_.empty()) return;
    dead.swap(dead_rows_);
  }
  for (uint64_t row_id : dead) {
    if (row_id >> kChunkShift >= chunks_.size()) continue;
    const TableChunk& chunk = chunks_[row_id >> kChunkShift];
    const auto row = static_cast<uint32_t>(row_id & (kChunkCapacity - 1));
    const ChunkVersions* versions = chunk.versions();
    // Deleted, and no change left on its chain: every snapshot sees it deleted.
    if (row >= chunk.size() || !versions || !versions->deleted(row) || versions->head(row))
      continue;
    unindex_row(row_id);
  }
}

bool Table::has_version_chains() const {
  for (size_t c = 0; c < chunks_.size(); ++c)
    if (chunks_[c].versions() && chunks_[c].versions()->chained_rows()) return true;
  return false;
}

void Table::index_row(uint64_t row_id) {
  for (size_t i = 0; i < indexes_.size(); ++i) {
    try {
      indexes_[i]->insert(row_id);
    } catch (...) {
      for (size_t j = 0; j < i; ++j) indexes_[j]->erase(row_id);
      throw;
    }
  }
}

void Table::freeze_all(std::optional<size_t> sort_column) {
  std::vector<size_t> all(chunks_.size());
  for (size_t c = 0; c < all.size(); ++c) all[c] = c;
  freeze_chunks(all, sort_column);
}

void Table::freeze_full_chunks() {
  freeze_chunks(full_chunks_filled_before(std::chrono::steady_clock::time_point::max()));
}

std::vector<size_t> Table::full_chunks_filled_before(
    std::chrono::steady_clock::time_point cutoff) const {
  std::vector<size_t> full;
  for (size_t c = 0; c < chunks_.size(); ++c)
    if (!chunks_[c].frozen() && chunks_[c].hot()->full() && chunks_[c].filled_at() <= cutoff)
      full.push_back(c);
  return full;
}

bool Table::statistics_usable(bool exact) const {
  if (statistics_.size() != columns_.size()) return false;
  const uint64_t changed = modification_count() - statistics_version_;
  if (exact) return changed == 0;
  return static_cast<double>(changed) <
         kStatisticsRefreshRows +
             kStatisticsRefreshFraction * static_cast<double>(statistics_rows_);
}

void Table::reset_statistics() const {
  statistics_.assign(columns_.size(), nullptr);
  statistics_version_ = modification_count();
  statistics_rows_ = row_count();
}

void Table::invalidate_statistics() {
  std::lock_guard lock(statistics_mutex_);
  statistics_.clear();
}

std::shared_ptr<const ColumnStatistics> Table::column_statistics(size_t column) const {
  std::lock_guard lock(statistics_mutex_);
  if (!statistics_usable(false)) reset_statistics();
  if (!statistics_[column])
    statistics_[column] =
        std::make_shared<const ColumnStatistics>(compute_column_statistics(*this, column));
  return statistics_[column];
}

void Table::analyze() const {
  uint64_t version;
  std::vector<size_t> missing;
  {
    std::lock_guard lock(statistics_mutex_);
    if (!statistics_usable(true)) reset_statistics();
    version = statistics_version_;
    for (size_t column = 0; column < columns_.size(); ++column)
      if (!statistics_[column]) missing.push_back(column);
  }
  std::vector<std::shared_ptr<const ColumnStatistics>> computed(missing.size());
  tbb::parallel_for(size_t{0}, missing.size(), [&](size_t i) {
    computed[i] =
        std::make_shared<const ColumnStatistics>(compute_column_statistics(*this, missing[i]));
  });
  std::lock_guard lock(statistics_mutex_);
  if (statistics_version_ != version || statistics_.size() != columns_.size())
    return;  // the rows changed meanwhile
  for (size_t i = 0; i < missing.size(); ++i)
    if (!statistics_[missing[i]]) statistics_[missing[i]] = std::move(computed[i]);
}

void TableAppender::begin_row() {
  chunk_ = &table_.last_chunk_with_room();
  row_ = chunk_->append_slot();
}

void TableAppender::set_null(size_t column) {
  uint64_t* bits = chunk_->validity(column);
  if (!bits) {
    throw Error("null value in column \"" + table_.columns_[column].name + "\" of relation \"" +
                table_.name_ + "\" violates not-null constraint");
  }
  bits[row_ >> 6] &= ~(uint64_t{1} << (row_ & 63));
  std::memset(chunk_->data(column) + physical_size(table_.columns_[column].type.physical()) * row_,
              0, physical_size(table_.columns_[column].type.physical()));
}

void TableAppender::set(size_t column, const void* physical) {
  PhysicalType type = table_.columns_[column].type.physical();
  size_t width = physical_size(type);
  uint8_t* slot = chunk_->data(column) + width * row_;
  if (type == PhysicalType::kString) {
    const auto* text = static_cast<const StringRef*>(physical);
    StringRef stored = chunk_->strings().store(text->view());
    std::memcpy(slot, &stored, sizeof stored);
  } else {
    std::memcpy(slot, physical, width);
  }
}

void TableAppender::set_value(size_t column, const Value& value) {
  if (value.is_null()) return set_null(column);
  alignas(16) uint8_t buffer[16];
  value.write_physical(buffer);
  set(column, buffer);
}

void TableAppender::end_row() {
  if (indexes_ == IndexMaintenance::kPerRow && !table_.indexes_.empty()) {
    try {
      table_.index_row(uint64_t{table_.chunks_.size() - 1} << kChunkShift | row_);
    } catch (...) {
      chunk_->truncate(row_);  // the row never counted
      throw;
    }
  }
  if (chunk_->full()) table_.chunks_.back().mark_filled();
  // Published after the row's values and index entries: a reader never sees a row half-written.
  table_.row_count_.store(table_.row_count_.load(std::memory_order_relaxed) + 1,
                          std::memory_order_release);
  table_.count_changes(1);
}

void TableAppender::append_row(const std::vector<Value>& row) {
  begin_row();
  try {
    for (size_t i = 0; i < row.size(); ++i) set_value(i, row[i]);
  } catch (...) {
    chunk_->truncate(row_);  // the half-written row never counted
    throw;
  }
  end_row();
}

}  // namespace floe
