// Concise array table, CAT (Barber et al., "Memory-Efficient Hash Joins", VLDB 2015, section
// 2.4): for integer join keys whose range is dense enough (runtime/dense_key_layout.h), the
// key itself, not a hash, picks the bit, so the table has no collisions and stores no keys:
// the array holds payloads only, densely in bitmap order as in a CHT
// (runtime/concise_hash_table.h). Rows whose key has no bit of its own overflow, with their
// key: keys out of the layout's range (outliers beyond the density budget) and the second
// and later rows of a duplicate key. A probe's matches are exact; the caller compares no
// keys. With no payload the table is just its bitmap.
//
// Partitioning for the parallel build (section 2.4.2): the dense key is scrambled
// bijectively, a log P-bit hash of its high bits XORed onto its low log P bits, and those
// bits pick the partition, so a local predicate on the key's high bits (or on the last column
// of a composite key) does not leave partitions empty. The bitmap position is
// partition * (buckets per partition) + the key's high bits: still a bijection onto
// [0, P * buckets per partition), the range rounded up to whole words per partition, so each
// partition owns its words and the bitmap stays as dense as the keys.
#pragma once

#include <atomic>
#include <cstdint>
#include <cstring>
#include <vector>

#include "runtime/concise_table.h"
#include "runtime/dense_key_layout.h"
#include "runtime/hash.h"

namespace floe {

class ConciseArrayTable {
 public:
  ConciseArrayTable(DenseKeyLayout layout, uint32_t payload_size, uint32_t worker_count);

  // Build phase, thread-local: a new row with `key` (layout().columns() values) for
  // `worker`; returns its zeroed payload.
  uint8_t* insert(uint32_t worker, const int64_t* key) {
    uint8_t* staged = table_.stage(worker);
    std::memcpy(staged, key, key_bytes());
    return staged + key_bytes();
  }
  // Builds the table (parallel, in the caller's task arena) and frees the staged rows. Polls
  // `cancel` (runtime/cancellation.h). Safe with 0 rows.
  void finalize(const std::atomic<bool>* cancel = nullptr);

  // Probe phase. False means no row has this key (section 3.1; exact for keys in range).
  bool may_contain(const int64_t* key) const {
    uint64_t dense;
    if (layout_.pack(key, &dense)) return table_.bitmap().test(bucket_of(dense));
    return out_of_range_overflow_;
  }
  // Starts loading the bitmap word probe(key) reads for an in-range key.
  void prefetch(const int64_t* key) const {
    uint64_t dense;
    if (layout_.pack(key, &dense)) table_.bitmap().prefetch(bucket_of(dense));
  }
  // The first row with `key`; advance() gives the next one.
  ConciseCursor probe(const int64_t* key) const {
    uint64_t dense;
    if (layout_.pack(key, &dense)) return probe_dense(dense);
    if (!out_of_range_overflow_) return {};
    return overflow_first(key);
  }
  // The lookup by dense key (layout().pack() of an in-range key): its first row. advance()
  // with the key gives the next one.
  ConciseCursor probe_dense(uint64_t dense) const {
    uint64_t word;
    return table_.bucket_row(
        bucket_of(dense), in_range_overflow_ ? ConciseCursor::kOverflowFirst : ConciseCursor::kDone,
        &word);
  }
  ConciseCursor advance(const int64_t* key, ConciseCursor cursor) const {
    switch (cursor.step) {
      case ConciseCursor::kOverflowFirst:
        return overflow_first(key);
      case ConciseCursor::kOverflowNext: {
        uint64_t hash = key_hash(key);
        return overflow_match(table_.overflow().next(table_.overflow_entry(cursor.position), hash),
                              hash, key);
      }
      default:
        return {};
    }
  }
  // A match's payload. Rows [0, size()) are all rows.
  uint8_t* row(uint32_t position) const { return table_.row(position); }

  // Batch probe for the vectorized engine, as ConciseHashTable's: row r's key is
  // key_columns[0][r], ..., key_columns[columns - 1][r].
  uint32_t probe_batch(const int64_t* const* key_columns, const uint32_t* sel, uint32_t count,
                       ConciseCursor* cursors, uint32_t* out_sel) const;
  uint32_t advance_batch(const int64_t* const* key_columns, const uint32_t* sel, uint32_t count,
                         ConciseCursor* cursors, uint32_t* out_sel) const;

  const DenseKeyLayout& layout() const { return layout_; }
  uint32_t size() const { return table_.size(); }
  uint32_t overflow_size() const { return table_.overflow_size(); }
  uint32_t payload_size() const { return table_.payload_size(); }
  const ConciseBitmap& bitmap() const { return table_.bitmap(); }
  // Bitmap, rows, overflow index and overflow keys, after finalize().
  uint64_t memory_bytes() const {
    return table_.memory_bytes() + overflow_keys_.size() * sizeof(int64_t);
  }

  // The scrambled bitmap position of a dense key (see the top of this file).
  uint64_t bucket_of(uint64_t dense) const {
    return partition_of(dense) * table_.partition_buckets() + (dense >> table_.partition_bits());
  }
  uint64_t partition_of(uint64_t dense) const {
    const uint64_t partitions = table_.partition_count();
    uint64_t high = dense >> table_.partition_bits();
    return (dense & (partitions - 1)) ^ multiply_high(high * kGoldenRatio64, partitions);
  }

 private:
  struct BuildPolicy;

  uint32_t key_bytes() const { return static_cast<uint32_t>(layout_.columns() * sizeof(int64_t)); }
  uint64_t key_hash(const int64_t* key) const {
    uint64_t hash = 0;
    for (size_t i = 0; i < layout_.columns(); ++i)
      hash = mix_hash((hash ^ static_cast<uint64_t>(key[i])) * kGoldenRatio64);
    return hash;
  }
  ConciseCursor overflow_first(const int64_t* key) const {
    uint64_t hash = key_hash(key);
    return overflow_match(table_.overflow().first(hash), hash, key);
  }
  // The first overflow entry from `entry` on (along the chain of `hash`) that holds `key`.
  ConciseCursor overflow_match(uint32_t entry, uint64_t hash, const int64_t* key) const;

  DenseKeyLayout layout_;
  ConciseTable table_;
  std::vector<int64_t> overflow_keys_;  // layout().columns() per overflow entry
  bool in_range_overflow_ = false;      // some in-range key has overflow rows (duplicates)
  bool out_of_range_overflow_ = false;  // some row's key is out of range
};

}  // namespace floe
