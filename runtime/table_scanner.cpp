#include "runtime/table_scanner.h"

#include <algorithm>
#include <cstring>
#include <string>

#include "runtime/simd_match.h"
#include "storage/data_block.h"
#include "storage/error.h"

namespace floe {

// The current segment's restrictions: each one a step over an array of the chunk.
struct TableScanner::ChunkPlan {
  const TableChunk* chunk = nullptr;
  uint64_t index = 0;  // the chunk's
  std::vector<RestrictionStep> steps;
};

TableScanner::TableScanner(const Table& table, std::vector<size_t> columns,
                           std::vector<ScanRestriction> restrictions, ScanSettings settings,
                           const std::vector<uint64_t>* row_ids)
    : table_(table),
      columns_(std::move(columns)),
      restrictions_(std::move(restrictions)),
      settings_(settings),
      chunk_plan_(std::make_unique<ChunkPlan>()),
      row_ids_(row_ids),
      column_pointers_(columns_.size()),
      validity_pointers_(columns_.size()) {
  if (settings_.vector_size == 0 || settings_.vector_size > kChunkCapacity)
    throw Error("internal error: scan vector size must be in [1, 65536]");
  for (size_t column : columns_) {
    if (column == kRowIdColumn) {
      types_.push_back(PhysicalType::kInt64);
      chunk_row_ids_.resize(kChunkCapacity);
      continue;
    }
    if (column >= table_.columns().size())
      throw Error("internal error: scan of column " + std::to_string(column) + " of table \"" +
                  table_.name() + "\" which has only " + std::to_string(table_.columns().size()) +
                  " columns");
    types_.push_back(table_.columns()[column].type.physical());
  }
  make_matchers();
  matches_.resize(settings_.vector_size + kMatchPadding);
  for (size_t i = 0; i < columns_.size(); ++i) {
    // Not zeroed: every batch writes the values it hands over (clearing them cost a point
    // lookup more than the lookup itself).
    values_.push_back(std::make_unique_for_overwrite<uint8_t[]>(physical_size(types_[i]) *
                                                                settings_.vector_size));
    // Set bits past the batch's rows keep an all-valid bitmap valid for any count.
    validity_.emplace_back((settings_.vector_size + 63) / 64, ~uint64_t{0});
  }
}

TableScanner::~TableScanner() = default;

void TableScanner::make_matchers() {
  hot_matchers_.clear();
  for (const ScanRestriction& restriction : restrictions_) {
    PhysicalType type = table_.columns()[restriction.column].type.physical();
    bool compares = restriction.kind == ScanRestriction::Kind::kRange ||
                    restriction.kind == ScanRestriction::Kind::kIn;
    hot_matchers_.push_back(compares ? make_value_matcher(type, restriction) : nullptr);
  }
}

void TableScanner::restart(std::vector<ScanRestriction> restrictions,
                           const ScanSettings& settings) {
  if (settings.vector_size != settings_.vector_size)
    throw Error("internal error: a scanner restarted with another vector size");
  restrictions_ = std::move(restrictions);
  settings_ = settings;
  statistics_ = {};
  make_matchers();
  // The planned chunk may have changed since the last run (frozen, its arrays grown).
  chunk_plan_->chunk = nullptr;
  chunk_plan_->steps.clear();
  position_ = end_ = segment_end_ = segment_limit_ = 0;
  next_id_ = 0;
}

bool TableScanner::open(uint64_t begin_row, uint64_t end_row) {
  if (begin_row > end_row) return false;
  position_ = begin_row;
  end_ = end_row;
  segment_end_ = begin_row;
  if (row_ids_)
    next_id_ = std::lower_bound(row_ids_->begin(), row_ids_->end(), begin_row) - row_ids_->begin();
  return true;
}

bool TableScanner::plan_chunk(uint64_t chunk_index, RowRange& range) {
  const TableChunk& chunk = table_.chunk(chunk_index);
  ChunkPlan& plan = *chunk_plan_;
  plan.chunk = &chunk;
  plan.index = chunk_index;
  plan.steps.clear();
  const bool whole_block = range.begin == 0 && chunk.frozen();
  bool possible = true;
  for (size_t i = 0; i < restrictions_.size() && possible; ++i) {
    const ScanRestriction& restriction = restrictions_[i];
    if (chunk.frozen()) {
      possible = plan_block_restriction(*chunk.block(), restriction, hot_matchers_[i].get(),
                                        settings_, plan.steps, range);
    } else {
      possible = plan_hot_restriction(*chunk.hot(), restriction, hot_matchers_[i].get(),
                                      plan.steps);
    }
  }
  if (!possible && whole_block) ++statistics_.blocks_skipped;
  return possible;
}

// Prepares the restrictions for rows [row, stop) of chunk `chunk_index` and narrows them
// (PSMA); returns false when no row of them can match.
bool TableScanner::prepare_segment(uint64_t chunk_index, uint32_t row, uint32_t stop) {
  RowRange range{row, stop};
  if (!plan_chunk(chunk_index, range)) return false;
  statistics_.psma_rows_removed += (stop - row) - range.size();
  if (range.empty()) return false;
  position_ = (chunk_index << kChunkShift) + range.begin;
  segment_end_ = (chunk_index << kChunkShift) + range.end;
  segment_limit_ = (chunk_index << kChunkShift) + stop;
  return true;
}

uint32_t TableScanner::find_matches(uint32_t begin, uint32_t end) {
  const auto& steps = chunk_plan_->steps;
  uint32_t count = steps[0].find(begin, end, matches_.data());
  for (size_t s = 1; s < steps.size() && count > 0; ++s)
    count = steps[s].reduce(matches_.data(), count, matches_.data());
  return count;
}

uint32_t TableScanner::next_listed(FloeScanBatch& batch) {
  const std::vector<uint64_t>& ids = *row_ids_;
  while (next_id_ < ids.size() && ids[next_id_] < end_) {
    const uint64_t chunk_index = ids[next_id_] >> kChunkShift;
    if (chunk_index >= table_.chunk_count()) break;
    const TableChunk& chunk = table_.chunk(chunk_index);
    if (chunk_plan_->chunk != &chunk) {
      // The restrictions are planned over the whole chunk: no PSMA narrowing for a few rows.
      RowRange range{0, chunk.size()};
      if (!plan_chunk(chunk_index, range)) {
        chunk_plan_->chunk = nullptr;
        const uint64_t next_chunk = (chunk_index + 1) << kChunkShift;
        next_id_ = std::lower_bound(ids.begin() + next_id_, ids.end(), next_chunk) - ids.begin();
        continue;
      }
    }
    uint32_t count = 0;
    // Not the rows a writer beside is still appending (Table::readable_rows).
    const uint32_t readable = table_.readable_rows(chunk_index);
    for (; next_id_ < ids.size() && count < settings_.vector_size; ++next_id_) {
      const uint64_t id = ids[next_id_];
      if (id >= end_ || id >> kChunkShift != chunk_index) break;
      const auto row = static_cast<uint32_t>(id & (kChunkCapacity - 1));
      if (row < readable) matches_[count++] = row;
    }
    if (chunk.versions()) {
      // MVCC: the listed rows the snapshot sees (the index holds the newest keys).
      listed_.assign(matches_.begin(), matches_.begin() + count);
      uint32_t matched = count;
      for (const RestrictionStep& step : chunk_plan_->steps)
        matched = matched ? step.reduce(matches_.data(), matched, matches_.data()) : 0;
      matched = hand_over_visible(listed_.data(), 0, count, matched, batch);
      if (matched == 0) continue;
      statistics_.rows_matched += matched;
      return matched;
    }
    for (const RestrictionStep& step : chunk_plan_->steps)
      count = count ? step.reduce(matches_.data(), count, matches_.data()) : 0;
    if (count == 0) continue;
    statistics_.rows_matched += count;
    hand_over_matches(count, batch);
    return count;
  }
  next_id_ = row_ids_->size();
  batch.count = 0;
  return 0;
}

uint32_t TableScanner::next(FloeScanBatch& batch) {
  if (row_ids_) return next_listed(batch);
  while (position_ < end_) {
    uint64_t chunk_index = position_ >> kChunkShift;
    if (chunk_index >= table_.chunk_count()) break;
    const TableChunk& chunk = table_.chunk(chunk_index);
    uint64_t chunk_base = chunk_index << kChunkShift;
    // Not the rows a writer beside is still appending (Table::readable_rows).
    uint32_t stop = static_cast<uint32_t>(
        std::min<uint64_t>(end_ - chunk_base, table_.readable_rows(chunk_index)));
    uint32_t row = static_cast<uint32_t>(position_ - chunk_base);
    if (row >= stop) {
      position_ = chunk_base + kChunkCapacity;
      continue;
    }
    if (position_ >= segment_end_ && !prepare_segment(chunk_index, row, stop)) {
      position_ = chunk_base + stop;
      continue;
    }
    row = static_cast<uint32_t>(position_ - chunk_base);
    uint32_t segment_stop = static_cast<uint32_t>(segment_end_ - chunk_base);
    uint32_t count = std::min(settings_.vector_size, segment_stop - row);
    position_ += count;
    // The rows between the segment's end and the range's end in this chunk are those the
    // PSMA ruled out: skip them rather than prepare (and count) them again.
    if (position_ >= segment_end_) position_ = segment_limit_;
    if (chunk.versions()) {
      uint32_t matched = chunk_plan_->steps.empty() ? count : find_matches(row, row + count);
      matched = hand_over_visible(nullptr, row, count, matched, batch);
      if (matched == 0) continue;
      statistics_.rows_matched += matched;
      return matched;
    }
    if (chunk_plan_->steps.empty()) {
      statistics_.rows_matched += count;
      if (chunk.frozen())
        unpack(nullptr, row, count, batch);
      else
        hand_over(row, count, batch);
      return count;
    }
    uint32_t matched = find_matches(row, row + count);
    if (matched == 0) continue;
    statistics_.rows_matched += matched;
    hand_over_matches(matched, batch);
    return matched;
  }
  position_ = end_;
  batch.count = 0;
  return 0;
}

const uint64_t* TableScanner::row_ids(uint32_t begin) {
  const uint64_t chunk_index = chunk_plan_->index;
  if (chunk_row_ids_chunk_ != chunk_index) {
    for (uint32_t row = 0; row < kChunkCapacity; ++row)
      chunk_row_ids_[row] = chunk_index << kChunkShift | row;
    chunk_row_ids_chunk_ = chunk_index;
  }
  return chunk_row_ids_.data() + begin;
}

void TableScanner::hand_over(uint32_t begin, uint32_t count, FloeScanBatch& batch) {
  const HotChunk& hot = *chunk_plan_->chunk->hot();
  for (size_t i = 0; i < columns_.size(); ++i) {
    if (columns_[i] == kRowIdColumn) {
      column_pointers_[i] = row_ids(begin);
      validity_pointers_[i] = nullptr;
      continue;
    }
    column_pointers_[i] = hot.data(columns_[i]) + physical_size(types_[i]) * begin;
    validity_pointers_[i] = hot.validity(columns_[i]);
  }
  batch.count = count;
  batch.validity_offset = begin;
  batch.columns = column_pointers_.data();
  batch.validity = validity_pointers_.data();
  batch.selection = nullptr;
}

void TableScanner::hand_over_matches(uint32_t count, FloeScanBatch& batch) {
  const TableChunk& chunk = *chunk_plan_->chunk;
  if (!chunk.frozen()) {
    // The matches select rows of the hot chunk's own arrays: nothing is copied. The batch
    // starts at the first match, so that its positions, and the vectors the vectorized engine
    // computes over them (one value per position up to the last, runtime/vector/vector.h),
    // span the matches rather than the chunk from its first row.
    const uint32_t first = matches_[0];
    hand_over(first, count, batch);
    for (uint32_t i = 0; i < count; ++i) matches_[i] -= first;
    batch.selection = matches_.data();
    return;
  }
  // Dense matches (at least every other row of their span): decoding the span in sequence
  // and selecting from it beats decoding row by row (TPC-H q1 keeps 98% of the rows).
  uint32_t first = matches_[0];
  uint32_t span = matches_[count - 1] - first + 1;
  if (count * 2 < span) return unpack(matches_.data(), 0, count, batch);
  unpack(nullptr, first, span, batch);
  for (uint32_t i = 0; i < count; ++i) matches_[i] -= first;
  batch.count = count;
  batch.selection = matches_.data();
}

void TableScanner::unpack(const uint32_t* positions, uint32_t begin, uint32_t count,
                          FloeScanBatch& batch) {
  const DataBlock& block = *chunk_plan_->chunk->block();
  for (size_t i = 0; i < columns_.size(); ++i) {
    if (columns_[i] == kRowIdColumn) {
      const uint64_t* ids = row_ids(0);
      auto* out = reinterpret_cast<uint64_t*>(values_[i].get());
      for (uint32_t k = 0; k < count; ++k) out[k] = ids[positions ? positions[k] : begin + k];
      column_pointers_[i] = out;
      validity_pointers_[i] = nullptr;
      continue;
    }
    BlockColumn column = block.column(columns_[i]);
    uint64_t* validity = validity_[i].data();
    if (positions)
      column.unpack(positions, count, values_[i].get());
    else
      column.unpack_range(begin, count, values_[i].get());
    if (!column.has_nulls())
      std::fill(validity_[i].begin(), validity_[i].end(), ~uint64_t{0});
    else if (positions)
      column.unpack_validity(positions, count, validity);
    else
      column.unpack_validity_range(begin, count, validity);
    column_pointers_[i] = values_[i].get();
    validity_pointers_[i] = validity;
  }
  hand_over_buffers(count, batch);
}

void TableScanner::hand_over_buffers(uint32_t count, FloeScanBatch& batch) {
  batch.count = count;
  batch.validity_offset = 0;
  batch.columns = column_pointers_.data();
  batch.validity = validity_pointers_.data();
  batch.selection = nullptr;
}

uint32_t TableScanner::hand_over_visible(const uint32_t* candidates, uint32_t begin,
                                         uint32_t count, uint32_t matched, FloeScanBatch& batch) {
  const TableChunk& chunk = *chunk_plan_->chunk;
  const ChunkVersions& versions = *chunk.versions();
  const bool all = chunk_plan_->steps.empty();
  const Snapshot& snapshot = settings_.snapshot;
  visible_.clear();
  patched_.clear();
  patched_strings_.clear();
  uint32_t next_match = 0;  // into matches_
  for (uint32_t i = 0; i < count; ++i) {
    const uint32_t row = candidates ? candidates[i] : begin + i;
    const bool match = all || (next_match < matched && matches_[next_match] == row);
    if (!all && match) ++next_match;
    // The delete flag before the head: a writer beside installs a delete's undo entry before
    // it sets the flag (storage/row_versions.h).
    const bool deleted = versions.deleted(row);
    if (!versions.head(row)) {
      if (match && !deleted) visible_.push_back(row);
      continue;
    }
    RowVersion version = visible_version(versions, row, snapshot);
    if (!version.exists) continue;
    if (version.updates.empty()) {
      if (match) visible_.push_back(row);
      continue;
    }
    // A before-image: the restrictions decided on the newest values, decide again.
    if (!passes_restrictions(row, version)) continue;
    patched_.emplace_back(static_cast<uint32_t>(visible_.size()), std::move(version));
    visible_.push_back(row);
  }
  const auto visible = static_cast<uint32_t>(visible_.size());
  if (visible == 0) return 0;
  if (chunk.frozen())
    unpack(visible_.data(), 0, visible, batch);
  else
    gather_hot(visible_.data(), visible, batch);
  for (const auto& [k, version] : patched_) patch(k, visible_[k], version);
  return visible;
}

void TableScanner::gather_hot(const uint32_t* positions, uint32_t count, FloeScanBatch& batch) {
  const HotChunk& hot = *chunk_plan_->chunk->hot();
  for (size_t i = 0; i < columns_.size(); ++i) {
    uint8_t* out = values_[i].get();
    if (columns_[i] == kRowIdColumn) {
      const uint64_t* ids = row_ids(0);
      auto* row_ids_out = reinterpret_cast<uint64_t*>(out);
      for (uint32_t k = 0; k < count; ++k) row_ids_out[k] = ids[positions[k]];
      column_pointers_[i] = out;
      validity_pointers_[i] = nullptr;
      continue;
    }
    const size_t width = physical_size(types_[i]);
    const uint8_t* data = hot.data(columns_[i]);
    for (uint32_t k = 0; k < count; ++k)
      std::memcpy(out + width * k, data + width * positions[k], width);
    const uint64_t* validity = hot.validity(columns_[i]);
    uint64_t* bits = validity_[i].data();
    std::fill(validity_[i].begin(), validity_[i].end(), ~uint64_t{0});
    if (validity) {
      for (uint32_t k = 0; k < count; ++k)
        if (!(validity[positions[k] >> 6] >> (positions[k] & 63) & 1))
          bits[k >> 6] &= ~(uint64_t{1} << (k & 63));
    }
    column_pointers_[i] = out;
    validity_pointers_[i] = bits;
  }
  hand_over_buffers(count, batch);
}

Value TableScanner::visible_value(uint32_t row, size_t column, const RowVersion& version) const {
  if (const Value* before = version.before_image(column)) return *before;
  return chunk_plan_->chunk->value(row, column, table_.columns()[column].type);
}

bool TableScanner::passes_restrictions(uint32_t row, const RowVersion& version) {
  for (size_t r = 0; r < restrictions_.size(); ++r) {
    const ScanRestriction& restriction = restrictions_[r];
    if (!value_passes(restriction, hot_matchers_[r].get(),
                      visible_value(row, restriction.column, version)))
      return false;
  }
  return true;
}

void TableScanner::patch(uint32_t k, uint32_t row, const RowVersion& version) {
  for (size_t i = 0; i < columns_.size(); ++i) {
    if (columns_[i] == kRowIdColumn) continue;
    const Value value = visible_value(row, columns_[i], version);
    const size_t width = physical_size(types_[i]);
    uint8_t* slot = values_[i].get() + width * k;
    uint64_t& word = validity_[i][k >> 6];
    if (value.is_null()) {
      word &= ~(uint64_t{1} << (k & 63));
      continue;
    }
    word |= uint64_t{1} << (k & 63);
    alignas(16) uint8_t physical[16];
    value.write_physical(physical);
    if (types_[i] == PhysicalType::kString) {
      const std::string& kept = patched_strings_.emplace_back(value.as_string());
      const StringRef ref = StringRef::from(kept);
      std::memcpy(slot, &ref, sizeof ref);
    } else {
      std::memcpy(slot, physical, width);
    }
  }
}

}  // namespace floe
