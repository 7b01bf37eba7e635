#include "engine/api/index_range_predicate.h"

namespace floe {

std::vector<ScanRestriction> index_range_predicate(const UniqueIndex& index,
                                                   const std::optional<IndexBound>& low,
                                                   const std::optional<IndexBound>& high) {
  const std::vector<size_t>& columns = index.constraint().columns;
  const size_t low_parts = low ? low->prefix.size() : 0;
  const size_t high_parts = high ? high->prefix.size() : 0;
  std::vector<ScanRestriction> restrictions;
  size_t part = 0;
  // Leading parts both bounds fix to one value.
  for (; part < low_parts && part < high_parts; ++part) {
    if (!(low->prefix[part] == high->prefix[part])) break;
    ScanRestriction equal{columns[part], ScanRestriction::Kind::kRange, {}, {}, {}};
    equal.low = ScanRestriction::Bound{low->prefix[part], true};
    equal.high = equal.low;
    restrictions.push_back(std::move(equal));
  }
  // The next part lies between the bounds' values there; strictly only when the bound ends
  // with it (otherwise later parts decide).
  ScanRestriction range{0, ScanRestriction::Kind::kRange, {}, {}, {}};
  if (part < low_parts)
    range.low = ScanRestriction::Bound{low->prefix[part], part + 1 < low_parts || low->inclusive};
  if (part < high_parts)
    range.high =
        ScanRestriction::Bound{high->prefix[part], part + 1 < high_parts || high->inclusive};
  if (range.low || range.high) {
    range.column = columns[part];
    restrictions.push_back(std::move(range));
  }
  return restrictions;
}

}  // namespace floe
