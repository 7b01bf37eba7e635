// Positional SMA (PSMA), Data Blocks paper §3.2 and Appendix B: a lookup table that maps the
// delta of a value to its block's minimum (delta = value - min) to the row range [begin, end)
// in which values with that delta's slot occur. A w-byte delta domain has 256 * w slots; the
// slot of a delta is its most significant non-zero byte plus 256 times the number of bytes
// below that byte, so deltas of one byte have a slot each and larger deltas share slots.
#pragma once

#include <bit>
#include <cstddef>
#include <cstdint>

namespace floe {

// Rows [begin, end) of a block. Empty when begin == end.
struct RowRange {
  uint32_t begin = 0;
  uint32_t end = 0;

  bool empty() const { return begin >= end; }
  uint32_t size() const { return empty() ? 0 : end - begin; }
  bool operator==(const RowRange&) const = default;
};

constexpr unsigned kPsmaSlotsPerByte = 256;

// Slots of a PSMA over deltas of `delta_width` bytes.
constexpr size_t psma_slot_count(unsigned delta_width) {
  return size_t{kPsmaSlotsPerByte} * delta_width;
}

// Appendix B's getPSMASlot: i = m + r * 256 with r the number of bytes below the most
// significant non-zero byte m of the delta (r = 0 for delta 0).
inline uint32_t psma_slot(uint64_t delta) {
  const uint32_t r = delta ? 7 - (static_cast<uint32_t>(std::countl_zero(delta)) >> 3) : 0;
  return static_cast<uint32_t>(delta >> (r << 3)) + (r << 8);
}

// Builds a PSMA in O(n) (Appendix B): `table` has psma_slot_count(width) entries and is
// cleared first; `delta_of(row)` gives a row's delta, which must fit in `width` bytes. Rows
// whose bit in `validity` is clear (NULLs) are left out; nullptr means every row is present.
template <typename DeltaOf>
void build_psma(uint32_t rows, const uint64_t* validity, DeltaOf delta_of, RowRange* table,
                size_t slots) {
  for (size_t i = 0; i < slots; ++i) table[i] = {};
  for (uint32_t row = 0; row < rows; ++row) {
    if (validity && !(validity[row >> 6] >> (row & 63) & 1)) continue;
    RowRange& entry = table[psma_slot(delta_of(row))];
    if (entry.empty()) entry.begin = row;
    entry.end = row + 1;
  }
}

// The union of the non-empty ranges of slots psma_slot(low)..psma_slot(high), the rows that
// may hold a delta in [low, high] (low <= high). Deltas beyond the table fall into its last
// slot. Empty when no row can.
RowRange psma_lookup(const RowRange* table, size_t slots, uint64_t low, uint64_t high);

}  // namespace floe
