#include "storage/string_heap.h"

#include <cstring>

namespace floe {

char* StringHeap::allocate(size_t size) {
  if (size > remaining_) {
    size_t block = size > kBlockSize / 4 ? size : kBlockSize;
    blocks_.emplace_back(new char[block]);
    if (block == kBlockSize) {
      cursor_ = blocks_.back().get();
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

StringRef StringHeap::store(std::string_view bytes) {
  if (bytes.size() <= StringRef::kInlineLength) return StringRef::from(bytes);
  char* copy = allocate(bytes.size());
  std::memcpy(copy, bytes.data(), bytes.size());
  return StringRef::from({copy, bytes.size()});
}

}  // namespace floe
