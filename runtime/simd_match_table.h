// The precomputed position table of the Data Blocks paper (Lang et al., SIGMOD 2016, section
// 4.2, Figure 7, appendix C): entry m lists the positions of the set bits of the 8-bit mask m.
// Cell k holds (position of the k-th set bit) << 8 | popcount(m); the low byte is the number
// of matches, by which the write cursor advances. Cells past the count are don't-cares
// (position 0). 256 entries of 8 x 4 bytes = 8 KB, small enough to stay in L1.
//
// Finding matches adds the base position to the shifted cells and stores all 8; reducing
// matches uses the shifted cells as a permutation of the 8 gathered positions.
#pragma once

#include <array>
#include <cstdint>

namespace floe::simd::detail {

struct alignas(32) MatchTableEntry {
  uint32_t cells[8];

  uint32_t count() const { return cells[0] & 0xFF; }
};

constexpr unsigned kMatchTableCountBits = 8;

constexpr std::array<MatchTableEntry, 256> make_match_table() {
  std::array<MatchTableEntry, 256> table{};
  for (uint32_t mask = 0; mask < 256; ++mask) {
    uint32_t count = static_cast<uint32_t>(__builtin_popcount(mask));
    uint32_t k = 0;
    for (uint32_t bit = 0; bit < 8; ++bit) {
      if (mask >> bit & 1) table[mask].cells[k++] = bit << kMatchTableCountBits | count;
    }
    for (; k < 8; ++k) table[mask].cells[k] = count;
  }
  return table;
}

inline constexpr std::array<MatchTableEntry, 256> kMatchTable = make_match_table();

}  // namespace floe::simd::detail
