// An index scan's input (engine/plan/index_selection.cpp chooses it): the rows of one index
// whose keys lie in any of a list of key ranges. The scan asks for them once per query, as a
// sorted list of row ids, and then reads only those rows (TableScanner), chunk by chunk.
// An index nested-loop join's probe scan (engine/plan/index_join.cpp) gets its list the same
// way, from the keys of the join's build rows.
#pragma once

#include <cstdint>
#include <optional>
#include <vector>

#include "runtime/vector/row_slot.h"
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

// The keys of an index nested-loop join: index key column i is field `fields[i]`, of type
// `types[i]`, of the join's materialized build rows.
struct IndexJoinLookup {
  const UniqueIndex* index = nullptr;
  std::vector<vectorized::RowSlot> fields;
  std::vector<SqlType> types;
};

// The row ids of the index entries whose key is that of one of `rows` (a key with a NULL
// finds nothing: NULL keys never match), sorted and distinct.
std::vector<uint64_t> index_join_row_ids(const IndexJoinLookup& lookup,
                                         const std::vector<const uint8_t*>& rows);

}  // namespace floe
