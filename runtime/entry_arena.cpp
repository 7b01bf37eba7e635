#include "runtime/entry_arena.h"

#include <algorithm>
#include <cstring>

namespace floe {

namespace {
constexpr size_t kFirstBlockEntries = 128;
constexpr size_t kMaxBlockEntries = size_t{1} << 16;
}  // namespace

EntryArena::EntryArena(size_t entry_size)
    : stride_(std::max<size_t>(8, (entry_size + 7) & ~size_t{7})) {}

uint8_t* EntryArena::allocate() {
  if (blocks_.empty() || blocks_.back().used == blocks_.back().capacity) {
    size_t capacity = blocks_.empty() ? kFirstBlockEntries
                                      : std::min(kMaxBlockEntries, blocks_.back().capacity * 2);
    // Not zeroed here: each entry is cleared as it is handed out, while it is in cache anyway.
    blocks_.push_back(
        Block{std::unique_ptr<uint8_t[]>(new uint8_t[capacity * stride_]), capacity, 0});
  }
  Block& block = blocks_.back();
  uint8_t* entry = block.bytes.get() + block.used++ * stride_;
  std::memset(entry, 0, stride_);
  ++size_;
  return entry;
}

void EntryArena::clear() {
  blocks_.resize(std::min<size_t>(blocks_.size(), 1));
  if (!blocks_.empty()) blocks_[0].used = 0;
  size_ = 0;
}

}  // namespace floe
