// Fixed-size, zeroed allocations at stable addresses, carved out of geometrically growing
// blocks. Hash-table entries and materialized rows live here: generated code keeps pointers
// into them, so nothing may ever move.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <vector>

namespace floe {

class EntryArena {
 public:
  // Entries are `entry_size` bytes rounded up to 8, and 8-byte aligned.
  explicit EntryArena(size_t entry_size);

  uint8_t* allocate();  // zero-filled
  // Forgets every entry (their addresses dangle) but keeps the first (smallest) block for the
  // next entries, so that a query run many times (a prepared statement's kept state)
  // allocates nothing while its few entries fit, and keeps little memory when they are many.
  void clear();
  uint64_t size() const { return size_; }
  size_t stride() const { return stride_; }

  // Calls fn(uint8_t* entry) for every entry in allocation order.
  template <typename Fn>
  void for_each(Fn&& fn) const {
    for (const Block& block : blocks_)
      for (size_t i = 0; i < block.used; ++i) fn(block.bytes.get() + i * stride_);
  }

 private:
  struct Block {
    std::unique_ptr<uint8_t[]> bytes;  // operator new[]: aligned for any scalar
    size_t capacity;                   // entries
    size_t used;                       // entries
  };

  size_t stride_;
  std::vector<Block> blocks_;
  uint64_t size_ = 0;
};

}  // namespace floe
