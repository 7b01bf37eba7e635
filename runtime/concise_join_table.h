// The join table of a hash join planned with `SET join_table = 'cht' | 'cat' | 'auto'`, as
// either engine's build and probe code sees it (Barber et al., "Memory-Efficient Hash
// Joins", VLDB 2015, sections 2-2.4): a CHT (runtime/concise_hash_table.h) or a CAT
// (runtime/concise_array_table.h) behind one interface of hash, integer key and cursor.
//
// With `cat_key_columns` > 0 (integer join keys, CAT or auto requested), the build rows are
// staged with their keys and every key column's stats (runtime/dense_key_layout.h), and
// finalize() decides, the key range known now: CAT when the keys are dense enough
// (choose_join_table), else CHT. Either way the table then copies the staged rows in. With
// `cat_key_columns` == 0 the rows go straight into a CHT.
//
// Candidates are payload pointers; a CHT's may hold other keys, so the caller compares keys
// (for a CAT the comparison always holds). A NULL key is passed as 0: its row is a candidate
// of key 0 too, and the caller's key comparison (NULL never equal) rejects it.
#pragma once

#include <atomic>
#include <cstdint>
#include <optional>
#include <vector>

#include "runtime/concise_array_table.h"
#include "runtime/concise_hash_table.h"
#include "runtime/entry_arena.h"
#include "runtime/join_table_choice.h"

namespace floe {

class ConciseJoinTable {
 public:
  ConciseJoinTable(uint32_t payload_size, uint32_t worker_count, uint32_t cat_key_columns);

  // Build phase, thread-local: a new row for `worker` with this hash and (when CAT is
  // possible) its cat_key_columns integer key values; returns its zeroed payload.
  uint8_t* insert(uint32_t worker, uint64_t hash, const int64_t* key);
  // Chooses CAT or CHT (see above) and builds it, in the caller's task arena. Polls `cancel`.
  void finalize(const std::atomic<bool>* cancel = nullptr);

  // Probe phase: the first candidate's payload for this hash and key, or null; next() gives
  // the following ones. `cursor` keeps the walk's place.
  uint8_t* lookup(uint64_t hash, const int64_t* key, ConciseCursor* cursor) const {
    *cursor = cat_ ? cat_->probe(key) : cht_->probe(hash);
    return cursor->valid() ? row(cursor->position) : nullptr;
  }
  uint8_t* next(uint64_t hash, const int64_t* key, ConciseCursor* cursor) const {
    *cursor = cat_ ? cat_->advance(key, *cursor) : cht_->advance(hash, *cursor);
    return cursor->valid() ? row(cursor->position) : nullptr;
  }
  // Starts loading the bitmap word lookup() reads: a batched probe prefetches a whole vector's
  // words before its first lookup, so that their cache misses overlap.
  void prefetch(uint64_t hash, const int64_t* key) const {
    if (cat_) {
      cat_->prefetch(key);
    } else {
      cht_->prefetch(hash);
    }
  }
  // False when no row has this hash / key: the bitmap as a filter (section 3.1).
  bool may_contain(uint64_t hash, const int64_t* key) const {
    return cat_ ? cat_->may_contain(key) : cht_->may_contain(hash);
  }

  // Rows [0, size()), after finalize(): the scan of an outer join's unmatched rows.
  uint32_t size() const { return cat_ ? cat_->size() : cht_->size(); }
  uint8_t* row(uint32_t position) const { return cat_ ? cat_->row(position) : cht_->row(position); }

  // What finalize() built (kCht before).
  JoinTableKind kind() const { return cat_ ? JoinTableKind::kCat : JoinTableKind::kCht; }
  uint64_t memory_bytes() const { return cat_ ? cat_->memory_bytes() : cht_->memory_bytes(); }

 private:
  uint32_t payload_size_;
  uint32_t worker_count_;
  uint32_t key_columns_;
  std::optional<ConciseHashTable> cht_;
  std::optional<ConciseArrayTable> cat_;
  // With key columns: per worker, rows [hash, keys, payload] and each key column's stats.
  std::vector<EntryArena> staged_;
  std::vector<std::vector<KeyStats>> stats_;
};

}  // namespace floe
