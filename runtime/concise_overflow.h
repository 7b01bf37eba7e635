// The overflow table of a CHT or CAT (Barber et al., VLDB 2015, section 2.1): the rows that
// found no bucket of their own (a third row hashing to the same CHT bucket, a duplicate CAT
// key, a CAT key out of range) live after the bitmap-ordered rows of the table's array; this
// index finds them by hash. It is a small chaining table whose slot comes from a second hash
// function (mix_hash of the hash, not the bitmap's multiplicative hash), so keys that defeat
// the bitmap's hash do not collide here as well.
#pragma once

#include <cstdint>
#include <vector>

#include "runtime/hash.h"

namespace floe {

class OverflowIndex {
 public:
  static constexpr uint32_t kNone = UINT32_MAX;

  OverflowIndex() = default;
  // Entry i has hashes[i]; each chain lists its entries in ascending order.
  explicit OverflowIndex(std::vector<uint64_t> hashes);

  uint32_t size() const { return static_cast<uint32_t>(hashes_.size()); }
  bool empty() const { return hashes_.empty(); }
  uint64_t memory_bytes() const {
    return hashes_.size() * (sizeof(uint64_t) + sizeof(uint32_t)) +
           heads_.size() * sizeof(uint32_t);
  }

  // The first entry with this hash, or kNone.
  uint32_t first(uint64_t hash) const {
    if (hashes_.empty()) return kNone;
    return match(heads_[shape_.slot(mix_hash(hash))], hash);
  }
  // The entry after `entry` in its chain with this hash, or kNone.
  uint32_t next(uint32_t entry, uint64_t hash) const { return match(next_[entry], hash); }

 private:
  uint32_t match(uint32_t entry, uint64_t hash) const {
    while (entry != kNone && hashes_[entry] != hash) entry = next_[entry];
    return entry;
  }

  std::vector<uint64_t> hashes_;
  std::vector<uint32_t> next_;
  std::vector<uint32_t> heads_;
  HashDirectoryShape shape_{HashDirectoryShape::kMinBits};
};

}  // namespace floe
