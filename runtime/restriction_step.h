// A scan restriction prepared for one chunk of a table (table_scanner.h): which array of the
// chunk it runs over (plain values, or a Data Block's codes with the restriction's constants
// translated into the block's compressed domain, Data Blocks paper §3.4), and the chunk's
// validity bitmap that removes NULLs. Planning a restriction over a Data Block also consults
// the SMA and dictionary (is any row possible?) and the PSMA (which rows?).
#pragma once

#include <cstdint>
#include <memory>
#include <vector>

#include "runtime/array_matcher.h"
#include "runtime/scan_restriction.h"
#include "storage/hot_chunk.h"
#include "storage/psma.h"

namespace floe {

class DataBlock;

struct RestrictionStep {
  enum class Kind : uint8_t {
    kMatch,  // matcher over values, NULL rows removed
    kValid,  // IS NOT NULL
    kNull,   // IS NULL
  };
  Kind kind = Kind::kMatch;
  const void* values = nullptr;
  const ArrayMatcher* matcher = nullptr;
  std::unique_ptr<ArrayMatcher> owned_matcher;  // one made for this chunk only
  std::vector<uint8_t> decoded;                 // a block column's values, when codes can't do
  const uint64_t* validity = nullptr;           // null: the chunk holds no NULL here

  // Initial matches among rows [begin, end); `out` has room for end - begin + kMatchPadding.
  uint32_t find(uint32_t begin, uint32_t end, uint32_t* out) const;
  // Keeps the positions that pass; `out` may be `positions`.
  uint32_t reduce(const uint32_t* positions, uint32_t count, uint32_t* out) const;
};

// Adds the steps of `restriction` over a hot chunk to `steps`; false when no row can pass.
// `value_matcher` is the restriction's matcher over plain values (null: nothing passes).
bool plan_hot_restriction(const HotChunk& chunk, const ScanRestriction& restriction,
                          const ArrayMatcher* value_matcher, std::vector<RestrictionStep>& steps);

// The same over a Data Block. With `settings.sma_skipping` a block that the SMA or the
// dictionary rules out returns false; with `settings.psma` the PSMA narrows `range`.
bool plan_block_restriction(const DataBlock& block, const ScanRestriction& restriction,
                            const ArrayMatcher* value_matcher, const ScanSettings& settings,
                            std::vector<RestrictionStep>& steps, RowRange& range);

}  // namespace floe
