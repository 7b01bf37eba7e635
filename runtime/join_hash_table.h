// Chaining hash table for hash joins (DESIGN.md "Hash join"; Leis et al., "Morsel-Driven
// Parallelism", SIGMOD 2014, section 4.2): each worker materializes its build rows locally,
// then finalize() sizes the directory exactly and links every entry in with a lock-free
// insert. Directory slots carry a 16-bit tag (a tiny Bloom filter of the hashes in the
// chain) in the pointer's unused upper bits, so most probes of absent keys stop at the
// directory without touching an entry.
#pragma once

#include <atomic>
#include <cstdint>
#include <memory>
#include <vector>

#include "runtime/entry_arena.h"
#include "runtime/hash.h"

namespace floe {

struct JoinEntry {
  JoinEntry* next;
  uint64_t hash;
  // payload follows, 8-byte aligned

  uint8_t* payload() { return reinterpret_cast<uint8_t*>(this + 1); }
};
static_assert(sizeof(JoinEntry) == 16);

class JoinHashTable {
 public:
  JoinHashTable(uint32_t payload_size, uint32_t worker_count);

  // Build phase, thread-local: a new entry for `worker`; returns its zeroed payload.
  uint8_t* insert(uint32_t worker, uint64_t hash);
  // Sizes the directory (power of two >= 2 * entries) and links all entries in, one parallel
  // task per worker's entries (in the caller's task arena). Safe with 0 entries. Polls
  // `cancel` (runtime/cancellation.h); throws floe::Error when set.
  void finalize(const std::atomic<bool>* cancel = nullptr);

  // Probe phase: the first entry with this hash, or null.
  JoinEntry* lookup(uint64_t hash) const {
    uint64_t scrambled = HashDirectoryShape::scramble(hash);
    uint64_t slot = directory_[shape_.slot(scrambled)].load(std::memory_order_relaxed);
    if (!(slot & tag_of(scrambled))) return nullptr;
    auto* entry = reinterpret_cast<JoinEntry*>(slot & kPointerMask);
    return entry->hash == hash ? entry : next(entry, hash);
  }
  // Starts loading the directory slot lookup(hash) reads (a batched probe's first pass).
  void prefetch(uint64_t hash) const {
    __builtin_prefetch(&directory_[shape_.slot(HashDirectoryShape::scramble(hash))]);
  }
  // The next entry after `entry` in its chain with this hash, or null.
  static JoinEntry* next(JoinEntry* entry, uint64_t hash) {
    for (entry = entry->next; entry; entry = entry->next)
      if (entry->hash == hash) return entry;
    return nullptr;
  }

  // After finalize(), every entry is in exactly one of the directory's slot_count() chains
  // (linked by `next`, hashes mixed): the scan of a right/full outer join's unmatched rows.
  uint64_t slot_count() const { return shape_.capacity(); }
  JoinEntry* slot_chain(uint64_t slot) const {
    return reinterpret_cast<JoinEntry*>(directory_[slot].load(std::memory_order_relaxed) &
                                        kPointerMask);
  }

  // Every entry, chain after chain: the first one (null when empty) and the one after
  // `entry` (null after the last). The mark join's probe with a NULL mark key visits them all.
  JoinEntry* first() const { return first_from(0); }
  JoinEntry* following(const JoinEntry* entry) const {
    return entry->next ? entry->next
                       : first_from(shape_.slot(HashDirectoryShape::scramble(entry->hash)) + 1);
  }

  uint64_t size() const;
  uint32_t payload_size() const { return payload_size_; }

 private:
  // User-space pointers on x86-64 and AArch64 fit in the low 48 bits.
  static constexpr unsigned kTagShift = 48;
  static constexpr uint64_t kPointerMask = (uint64_t{1} << kTagShift) - 1;

  uint64_t tag_of(uint64_t scrambled) const {
    return uint64_t{1} << (kTagShift + shape_.bits_below_slot(scrambled, 4));
  }
  void link(JoinEntry* entry);
  JoinEntry* first_from(uint64_t slot) const;

  uint32_t payload_size_;
  std::vector<EntryArena> workers_;
  HashDirectoryShape shape_{HashDirectoryShape::kMinBits};
  std::unique_ptr<std::atomic<uint64_t>[]> directory_;
};

}  // namespace floe
