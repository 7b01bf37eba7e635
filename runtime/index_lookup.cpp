#include "runtime/index_lookup.h"

#include <algorithm>

namespace floe {

std::vector<uint64_t> index_row_ids(const IndexLookup& lookup) {
  std::vector<uint64_t> rows;
  for (const IndexLookup::Range& range : lookup.ranges) {
    lookup.index->scan(range.low, range.high, [&](uint64_t row_id) {
      rows.push_back(row_id);
      return true;
    });
  }
  std::sort(rows.begin(), rows.end());
  rows.erase(std::unique(rows.begin(), rows.end()), rows.end());
  return rows;
}

}  // namespace floe
