// The part of a CHT or CAT that does not depend on how a row finds its bucket: staging, the
// bitmap split into partitions of whole words, the bitmap-ordered rows followed by the
// overflow rows, and the overflow index. ConciseHashTable and ConciseArrayTable wrap it.
#pragma once

#include <atomic>
#include <cstdint>
#include <vector>

#include "runtime/concise_bitmap.h"
#include "runtime/concise_build.h"
#include "runtime/concise_overflow.h"
#include "storage/error.h"

namespace floe {

class ConciseTable {
 public:
  ConciseTable(uint32_t header_size, uint32_t payload_size, uint32_t worker_count)
      : staging_(header_size, payload_size, worker_count) {}

  // Build phase, thread-local: a zeroed staged row (header, then payload) for `worker`.
  uint8_t* stage(uint32_t worker) { return staging_.insert(worker); }
  uint64_t staged_rows() const { return staging_.size(); }
  // The partitioning of the staged rows (log2 of the partition count); throws when there are
  // too many rows for 32-bit positions.
  unsigned partition_bits_for_staged_rows() const {
    uint64_t rows = staging_.size();
    if (rows >= ConciseCursor::kNoRow) throw Error("join hash table: too many rows");
    return concise_partition_bits(rows);
  }
  // The two-pass build (runtime/concise_build.h) into 2^partition_bits partitions of at
  // least `buckets_per_partition` buckets each, rounded up to whole words. Returns the
  // staged headers of the overflow rows in array order; finish() then takes their index.
  template <typename Policy>
  std::vector<const uint8_t*> build(const Policy& policy, unsigned partition_bits,
                                    uint64_t buckets_per_partition,
                                    const std::atomic<bool>* cancel) {
    partition_bits_ = partition_bits;
    const uint64_t words_per_partition =
        (buckets_per_partition + ConciseBitmap::kBitsPerWord - 1) / ConciseBitmap::kBitsPerWord;
    partition_buckets_ = words_per_partition * ConciseBitmap::kBitsPerWord;
    bitmap_ = ConciseBitmap(words_per_partition << partition_bits);
    std::vector<const uint8_t*> overflow;
    rows_ = staging_.build(policy, uint32_t{1} << partition_bits, bitmap_, overflow, cancel);
    return overflow;
  }
  // Installs the overflow index and frees the staged rows.
  void finish(OverflowIndex overflow) {
    overflow_ = std::move(overflow);
    staging_.release();
  }

  unsigned partition_bits() const { return partition_bits_; }
  uint64_t partition_count() const { return uint64_t{1} << partition_bits_; }
  // Buckets per partition (whole words): partition p owns [p, p + 1) times this.
  uint64_t partition_buckets() const { return partition_buckets_; }

  // Probe: the row of an occupied `bucket` as a cursor whose next step is `then`, or no row.
  // `word` receives the bucket's bitmap word.
  ConciseCursor bucket_row(uint64_t bucket, uint32_t then, uint64_t* word) const {
    *word = bitmap_.word(bucket / ConciseBitmap::kBitsPerWord);
    if (!((*word >> (bucket % ConciseBitmap::kBitsPerWord)) & 1)) return {};
    return {static_cast<uint32_t>(ConciseBitmap::rank_in(*word, bucket)), then};
  }
  // An overflow entry's row as a cursor, or no row for OverflowIndex::kNone.
  ConciseCursor overflow_row(uint32_t entry) const {
    if (entry == OverflowIndex::kNone) return {};
    return {rows_.bitmap_rows + entry, ConciseCursor::kOverflowNext};
  }
  // The overflow entry of an overflow row's position.
  uint32_t overflow_entry(uint32_t position) const { return position - rows_.bitmap_rows; }

  const ConciseBitmap& bitmap() const { return bitmap_; }
  const OverflowIndex& overflow() const { return overflow_; }
  uint8_t* row(uint32_t position) const { return rows_.row(position); }
  uint32_t size() const { return rows_.total; }
  uint32_t overflow_size() const { return rows_.total - rows_.bitmap_rows; }
  uint32_t payload_size() const { return staging_.payload_size(); }
  uint64_t memory_bytes() const {
    return bitmap_.memory_bytes() + rows_.memory_bytes() + overflow_.memory_bytes();
  }

 private:
  ConciseStaging staging_;
  unsigned partition_bits_ = 0;
  uint64_t partition_buckets_ = ConciseBitmap::kBitsPerWord;
  ConciseBitmap bitmap_{1};
  ConciseRows rows_;
  OverflowIndex overflow_;
};

}  // namespace floe
