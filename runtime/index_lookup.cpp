#include "runtime/index_lookup.h"

#include <algorithm>
#include <unordered_set>

namespace floe {

namespace {

void sort_distinct(std::vector<uint64_t>& rows) {
  std::sort(rows.begin(), rows.end());
  rows.erase(std::unique(rows.begin(), rows.end()), rows.end());
}

}  // namespace

std::vector<uint64_t> index_row_ids(const IndexLookup& lookup) {
  std::vector<uint64_t> rows;
  for (const IndexLookup::Range& range : lookup.ranges) {
    lookup.index->scan(range.low, range.high, [&](uint64_t row_id) {
      rows.push_back(row_id);
      return true;
    });
  }
  sort_distinct(rows);
  return rows;
}

std::vector<uint64_t> index_join_row_ids(const IndexJoinLookup& lookup,
                                         const std::vector<const uint8_t*>& rows) {
  std::vector<uint64_t> found;
  std::unordered_set<std::string> seen;  // each distinct key is looked up once
  std::vector<Value> key;
  for (const uint8_t* row : rows) {
    key.clear();
    for (size_t i = 0; i < lookup.fields.size(); ++i) {
      const vectorized::RowSlot& field = lookup.fields[i];
      if (field.is_null(row)) break;
      key.push_back(Value::read_physical(row + field.offset, lookup.types[i]));
    }
    if (key.size() < lookup.fields.size()) continue;
    if (!seen.insert(lookup.index->key_of(key)).second) continue;
    for (uint64_t row_id : lookup.index->lookup(key)) found.push_back(row_id);
  }
  sort_distinct(found);
  return found;
}

}  // namespace floe
