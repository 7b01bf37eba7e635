#include "runtime/concise_overflow.h"

namespace floe {

OverflowIndex::OverflowIndex(std::vector<uint64_t> hashes)
    : hashes_(std::move(hashes)),
      next_(hashes_.size()),
      shape_(HashDirectoryShape::for_entries(hashes_.size())) {
  if (hashes_.empty()) return;
  heads_.assign(shape_.capacity(), kNone);
  // Inserting at the chain heads from the last entry down leaves every chain ascending.
  for (uint32_t entry = size(); entry-- > 0;) {
    uint32_t& head = heads_[shape_.slot(mix_hash(hashes_[entry]))];
    next_[entry] = head;
    head = entry;
  }
}

}  // namespace floe
