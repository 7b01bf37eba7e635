// An index scan's input (engine/plan/index_selection.cpp chooses it): the rows of one index
// whose keys lie in any of a list of key ranges. The scan asks for them once per query, as a
// sorted list of row ids, and then reads only those rows (TableScanner), chunk by chunk.
#pragma once

#include <cstdint>
#include <optional>
#include <vector>

#include "storage/unique_index.h"

namespace floe {

struct IndexLookup {
  struct Range {
    std::optional<IndexBound> low;   // absent: from the first key
    std::optional<IndexBound> high;  // absent: to the last key
  };
  const UniqueIndex* index = nullptr;
  std::vector<Range> ranges;
};

// The row ids of every range's entries, sorted and distinct.
std::vector<uint64_t> index_row_ids(const IndexLookup& lookup);

}  // namespace floe
