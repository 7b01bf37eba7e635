// Integer join keys as dense integers, for the concise array table (CAT; Barber et al.,
// "Memory-Efficient Hash Joins", VLDB 2015, section 2.4.1): each key column's values within
// a chosen range [min, max] become offsets from min, and a multi-column key concatenates its
// columns' offsets, each in as many bits as its range needs (no word-sized gaps between the
// parts). Keys with a column outside its range have no dense key: the CAT keeps them in its
// overflow.
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <span>
#include <vector>

namespace floe {

// The range of one key column (inclusive).
struct KeyColumnRange {
  int64_t min;
  int64_t max;
};

// What the CAT decision needs of one key column's build values: the two smallest and two
// largest distinct values (the second ones let a single outlier such as a MAXINT sentinel go
// to the overflow, section 2.4.1) and the number of values. Accumulated per worker, merged.
struct KeyStats {
  int64_t min = INT64_MAX;
  int64_t second_min = INT64_MAX;
  int64_t max = INT64_MIN;
  int64_t second_max = INT64_MIN;
  uint64_t count = 0;

  void add(int64_t value);
  void merge(const KeyStats& other);
};

class DenseKeyLayout {
 public:
  // Dense keys stay below 2^kMaxBits.
  static constexpr unsigned kMaxBits = 62;
  static constexpr size_t kMaxColumns = 8;

  // The layout of these column ranges (the first column in the highest bits), or nullopt
  // when there are none, more than kMaxColumns, an empty range, or the dense keys need more
  // than kMaxBits bits.
  static std::optional<DenseKeyLayout> make(std::span<const KeyColumnRange> columns);

  size_t columns() const { return columns_.size(); }
  // Dense keys are [0, range()).
  uint64_t range() const { return range_; }

  // The dense key of `key` (columns() values), or false when a column is out of its range.
  bool pack(const int64_t* key, uint64_t* dense) const {
    uint64_t packed = 0;
    for (const Column& column : columns_) {
      uint64_t offset = static_cast<uint64_t>(*key++) - static_cast<uint64_t>(column.min);
      if (offset > column.span) return false;
      packed |= offset << column.shift;
    }
    *dense = packed;
    return true;
  }

 private:
  struct Column {
    int64_t min;
    uint64_t span;  // max - min
    unsigned shift;
  };

  std::vector<Column> columns_;
  uint64_t range_ = 0;
};

// Row `row`'s key out of `columns` key column vectors (columns <= kMaxColumns).
inline std::array<int64_t, DenseKeyLayout::kMaxColumns> gather_key_row(
    const int64_t* const* key_columns, size_t columns, uint32_t row) {
  std::array<int64_t, DenseKeyLayout::kMaxColumns> key{};
  for (size_t i = 0; i < columns; ++i) key[i] = key_columns[i][row];
  return key;
}

// The CAT's density rule, from the paper: CAT pays off "even for mildly dense keys, e.g.,
// when the number of distinct keys is only 1% of the range" (section 1.1.3; Fig. 12 runs it at
// ranges 2x, 10x and 100x the inner's rows). So CAT applies when the dense key range is at
// most kCatMaxRangePerRow times the build rows. Its bitmap then costs at most 100 x 2 bits
// per row (a bit plus its share of the prefix counts), against CHT's 16 bits plus the key.
constexpr uint64_t kCatMaxRangePerRow = 100;

// The layout for a CAT over keys with these per-column stats, or nullopt when the keys are
// not dense enough (then CHT): first every column's [min, max]; failing that, every column's
// [second min, second max] (a column with fewer than three distinct values keeps its
// [min, max]), whose outliers go to the overflow.
std::optional<DenseKeyLayout> choose_cat_layout(std::span<const KeyStats> columns);

}  // namespace floe
