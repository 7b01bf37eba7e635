#include "storage/string_heap.h"

#include <cstring>

namespace floe {

char* StringHeap::allocate(size_t size) {
  if (size > remaining_) {
    size_t block = size > kBlockSize / 4 ? size : kBlockSize;
    blocks_.emplace_back(new char[block]);
    if (block == kBlockSize) {
      block_ = cursor_ = blocks_.back().get();
      remaining_ = block;
    } else {
      count(size);
      return blocks_.back().get();  // oversized string gets a block of its own
    }
  }
  char* out = cursor_;
  cursor_ += size;
  remaining_ -= size;
  count(size);
  return out;
}

void StringHeap::clear() {
  total_.store(0, std::memory_order_relaxed);
  if (!block_) {
    blocks_.clear();
    return;
  }
  for (auto& block : blocks_) {
    if (block.get() != block_) continue;
    std::unique_ptr<char[]> kept = std::move(block);
    blocks_.clear();
    blocks_.push_back(std::move(kept));
    break;
  }
  cursor_ = block_;
  remaining_ = kBlockSize;
}

StringRef StringHeap::store(std::string_view bytes) {
  if (bytes.size() <= StringRef::kInlineLength) return StringRef::from(bytes);
  char* copy = allocate(bytes.size());
  std::memcpy(copy, bytes.data(), bytes.size());
  return StringRef::from({copy, bytes.size()});
}

}  // namespace floe
