#include "runtime/dense_key_layout.h"

#include <algorithm>
#include <bit>

namespace floe {

void KeyStats::add(int64_t value) {
  ++count;
  if (value < min) {
    second_min = min;
    min = value;
  } else if (value > min && value < second_min) {
    second_min = value;
  }
  if (value > max) {
    second_max = max;
    max = value;
  } else if (value < max && value > second_max) {
    second_max = value;
  }
}

void KeyStats::merge(const KeyStats& other) {
  uint64_t total = count + other.count;
  // Adding the other side's two extremes at each end keeps the two distinct extremes of the
  // union (INT64_MAX / INT64_MIN stand for "none" and add nothing new at their end).
  for (int64_t value : {other.min, other.second_min}) {
    if (value != INT64_MAX) add(value);
  }
  for (int64_t value : {other.max, other.second_max}) {
    if (value != INT64_MIN) add(value);
  }
  count = total;
}

std::optional<DenseKeyLayout> DenseKeyLayout::make(std::span<const KeyColumnRange> columns) {
  if (columns.empty() || columns.size() > kMaxColumns) return std::nullopt;
  DenseKeyLayout layout;
  unsigned bits = 0;
  // From the last column (lowest bits) to the first; the first needs no power-of-two width.
  for (size_t i = columns.size(); i-- > 0;) {
    if (columns[i].min > columns[i].max) return std::nullopt;
    uint64_t span = static_cast<uint64_t>(columns[i].max) - static_cast<uint64_t>(columns[i].min);
    unsigned width = static_cast<unsigned>(std::bit_width(span));
    if (bits + width > kMaxBits) return std::nullopt;
    layout.columns_.push_back(Column{columns[i].min, span, bits});
    if (i == 0) layout.range_ = (span + 1) << bits;
    bits += width;
  }
  std::reverse(layout.columns_.begin(), layout.columns_.end());
  return layout;
}

namespace {

std::optional<DenseKeyLayout> dense_layout(std::span<const KeyStats> columns, bool trimmed) {
  std::vector<KeyColumnRange> ranges;
  for (const KeyStats& stats : columns) {
    if (trimmed && stats.second_min <= stats.second_max)
      ranges.push_back({stats.second_min, stats.second_max});
    else
      ranges.push_back({stats.min, stats.max});
  }
  std::optional<DenseKeyLayout> layout = DenseKeyLayout::make(ranges);
  // Row counts stay far below 2^56, so the product does not overflow.
  uint64_t rows = std::min(columns.front().count, uint64_t{1} << 56);
  if (layout && layout->range() > kCatMaxRangePerRow * rows) return std::nullopt;
  return layout;
}

}  // namespace

std::optional<DenseKeyLayout> choose_cat_layout(std::span<const KeyStats> columns) {
  if (columns.empty() || columns.front().count == 0) return std::nullopt;
  if (auto layout = dense_layout(columns, false)) return layout;
  return dense_layout(columns, true);
}

}  // namespace floe
