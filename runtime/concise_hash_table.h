// Concise hash table, CHT (Barber et al., "Memory-Efficient Hash Joins", VLDB 2015, section
// 2): a linear-probing hash table with its empty buckets compressed out. A bitmap marks the
// occupied buckets of a virtual table 8 times larger than the row count (fill 1 in 8,
// section 2.1); the rows are stored densely in bitmap order, so a bucket's row is at its rank
// in the bitmap (runtime/concise_bitmap.h); a row whose home bucket and the next one are both
// taken goes to an overflow table with a second hash function (runtime/concise_overflow.h).
//
// Engine-neutral, like JoinHashTable: the caller gives a 64-bit hash per build row, fills the
// row's fixed-size payload (its key among it), and compares keys itself: a probe yields the
// candidate rows for a hash, at most two from the array (the home bucket's and the next
// one's, which may belong to another hash) and then the overflow rows with this very hash.
// The array stores no hashes (section 2: only keys and payloads), so the table is the
// payloads (rounded up to 8 bytes), 2 bytes of bitmap per row and the overflow's index (for
// about 0.7% of the rows with distinct keys).
//
// Build: rows are staged per worker; finalize() builds the table in two passes, partitioned
// by the hash's high bits into one physical table (runtime/concise_build.h, section 2.3).
// Duplicates follow section 2.2.2: the first two rows of a key take the home bucket and the
// next (consecutive array positions), the rest overflow.
#pragma once

#include <atomic>
#include <cstdint>
#include <cstring>

#include "runtime/concise_table.h"
#include "runtime/hash.h"

namespace floe {

class ConciseHashTable {
 public:
  // Section 2.1: a fill factor of 1 in 8, and a linear probe threshold of 2 (a row whose
  // home bucket and the next are taken overflows). Each partition ends with kProbeThreshold - 1
  // buckets that are no row's home, so probing never leaves its partition and never wraps (the
  // paper wraps around within the partition instead).
  static constexpr uint64_t kBucketsPerRow = 8;
  static constexpr uint64_t kProbeThreshold = 2;

  ConciseHashTable(uint32_t payload_size, uint32_t worker_count);

  // Build phase, thread-local: a new row for `worker`; returns its zeroed payload.
  uint8_t* insert(uint32_t worker, uint64_t hash) {
    uint8_t* staged = table_.stage(worker);
    std::memcpy(staged, &hash, sizeof hash);
    return staged + sizeof hash;
  }
  // Builds the table (parallel, in the caller's task arena) and frees the staged rows. Polls
  // `cancel` (runtime/cancellation.h). Safe with 0 rows.
  void finalize(const std::atomic<bool>* cancel = nullptr);

  // Probe phase. False means no row has this hash (the bitmap as a Bloom filter, section 3.1).
  bool may_contain(uint64_t hash) const { return table_.bitmap().test(home(hash)); }
  // Starts loading the bitmap word probe(hash) reads (a batched probe's first pass).
  void prefetch(uint64_t hash) const { table_.bitmap().prefetch(home(hash)); }
  // The first candidate row for `hash`; advance() gives the next one.
  ConciseCursor probe(uint64_t hash) const {
    uint64_t bucket = home(hash);
    uint64_t word;
    ConciseCursor cursor = table_.bucket_row(bucket, ConciseCursor::kDone, &word);
    // Only with the next bucket taken can a row of this hash sit there or have overflowed.
    static_assert(kProbeThreshold == 2);
    if (cursor.valid() && table_.bitmap().test(bucket + 1))
      cursor.step = ConciseCursor::kArraySecond;
    return cursor;
  }
  ConciseCursor advance(uint64_t hash, ConciseCursor cursor) const {
    switch (cursor.step) {
      case ConciseCursor::kArraySecond:
        return {cursor.position + 1,
                table_.overflow().empty() ? ConciseCursor::kDone : ConciseCursor::kOverflowFirst};
      case ConciseCursor::kOverflowFirst:
        return table_.overflow_row(table_.overflow().first(hash));
      case ConciseCursor::kOverflowNext:
        return table_.overflow_row(
            table_.overflow().next(table_.overflow_entry(cursor.position), hash));
      default:
        return {};
    }
  }
  // A candidate's payload. Rows [0, size()) are all rows (the scan of an outer join's
  // unmatched rows).
  uint8_t* row(uint32_t position) const { return table_.row(position); }

  // Batch probe for the vectorized engine. probe_batch: for each row r in sel[0, count), the
  // first candidate of hashes[r] in cursors[r]; out_sel gets the rows that have one (it may
  // be `sel`). This step reads the bitmap only; the caller then reads the candidate rows
  // (section 2: two rounds of data-independent accesses). advance_batch moves cursors[r] of
  // the rows in sel on to their next candidate, out_sel gets the rows that have one.
  uint32_t probe_batch(const uint64_t* hashes, const uint32_t* sel, uint32_t count,
                       ConciseCursor* cursors, uint32_t* out_sel) const;
  uint32_t advance_batch(const uint64_t* hashes, const uint32_t* sel, uint32_t count,
                         ConciseCursor* cursors, uint32_t* out_sel) const;

  uint32_t size() const { return table_.size(); }
  uint32_t overflow_size() const { return table_.overflow_size(); }
  uint32_t payload_size() const { return table_.payload_size(); }
  const ConciseBitmap& bitmap() const { return table_.bitmap(); }
  // Bitmap, rows and overflow index, after finalize().
  uint64_t memory_bytes() const { return table_.memory_bytes(); }

  // The home bucket of a hash: partition from the high bits of the multiplicatively
  // scrambled hash (as HashDirectoryShape, so a 32-bit CRC hash spreads too), the bucket
  // within the partition from the bits below.
  uint64_t home(uint64_t hash) const {
    uint64_t scrambled = HashDirectoryShape::scramble(hash);
    return partition_of(hash) * table_.partition_buckets() +
           multiply_high(scrambled << table_.partition_bits(),
                         table_.partition_buckets() - (kProbeThreshold - 1));
  }
  uint64_t partition_of(uint64_t hash) const {
    return multiply_high(HashDirectoryShape::scramble(hash), table_.partition_count());
  }

 private:
  struct BuildPolicy;

  ConciseTable table_;
};

}  // namespace floe
