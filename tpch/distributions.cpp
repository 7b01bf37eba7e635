#include "tpch/distributions.h"

namespace floe::tpch {

size_t pick_index(const Distribution& distribution, RandomStream& stream) {
  int64_t target = stream.uniform(1, distribution.entries.back().cumulative_weight);
  size_t index = 0;
  while (distribution.entries[index].cumulative_weight < target) ++index;
  return index;
}

}  // namespace floe::tpch
