#include "storage/psma.h"

#include <algorithm>

namespace floe {

RowRange psma_lookup(const RowRange* table, size_t slots, uint64_t low, uint64_t high) {
  const size_t last = slots - 1;
  const size_t first_slot = std::min<size_t>(psma_slot(low), last);
  const size_t last_slot = std::min<size_t>(psma_slot(high), last);
  RowRange result;
  for (size_t i = first_slot; i <= last_slot; ++i) {
    const RowRange& entry = table[i];
    if (entry.empty()) continue;
    if (result.empty()) {
      result = entry;
    } else {
      result.begin = std::min(result.begin, entry.begin);
      result.end = std::max(result.end, entry.end);
    }
  }
  return result;
}

}  // namespace floe
