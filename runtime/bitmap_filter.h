// Early filtering by the bitmaps of several joins (Barber et al., "Memory-Efficient Hash
// Joins", VLDB 2015, section 3.1): in a probe pipeline with several CHT/CAT joins, a batch of
// probe rows first goes through every join's bitmap, used as a Bloom filter (exact for a CAT
// key in range), and only the rows that pass them all go on to touch any join's array. The
// rows then get the cumulative filtering of all joins, whatever the join order.
#pragma once

#include <cstdint>
#include <span>

namespace floe {

class ConciseArrayTable;
class ConciseHashTable;

// One join of the filter: a CHT with the probe rows' hashes (row r: hashes[r]), or a CAT
// with their key columns (row r: key_columns[0][r], ...).
struct BitmapFilterJoin {
  const ConciseHashTable* cht = nullptr;
  const uint64_t* hashes = nullptr;
  const ConciseArrayTable* cat = nullptr;
  const int64_t* const* key_columns = nullptr;
};

// The rows of sel[0, count) that every join's bitmap may hold, in order, into out_sel (which
// may be sel); returns their count. Reads the bitmaps only.
uint32_t filter_by_bitmaps(std::span<const BitmapFilterJoin> joins, const uint32_t* sel,
                           uint32_t count, uint32_t* out_sel);

}  // namespace floe
