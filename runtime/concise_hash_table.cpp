#include "runtime/concise_hash_table.h"

#include "storage/error.h"

namespace floe {

// Pass 1 of the build for one staged row (header: its hash): linear probing on the bitmap
// alone, up to the threshold (section 2.2.1, step A).
struct ConciseHashTable::BuildPolicy {
  const ConciseHashTable& table;

  static uint64_t hash_of(const uint8_t* header) {
    uint64_t hash;
    std::memcpy(&hash, header, sizeof hash);
    return hash;
  }
  uint32_t partition(const uint8_t* header) const {
    return static_cast<uint32_t>(table.partition_of(hash_of(header)));
  }
  bool place(ConciseBitmap& bitmap, const uint8_t* header, uint64_t* bucket) const {
    uint64_t home = table.home(hash_of(header));
    for (uint64_t probe = home; probe < home + kProbeThreshold; ++probe) {
      if (!bitmap.test(probe)) {
        bitmap.set(probe);
        *bucket = probe;
        return true;
      }
    }
    return false;
  }
};

ConciseHashTable::ConciseHashTable(uint32_t payload_size, uint32_t worker_count)
    : staging_(sizeof(uint64_t), payload_size, worker_count) {}

void ConciseHashTable::finalize(const std::atomic<bool>* cancel) {
  const uint64_t rows = staging_.size();
  if (rows >= ConciseCursor::kNoRow) throw Error("join hash table: too many rows");
  partition_bits_ = concise_partition_bits(rows);
  const uint64_t partitions = uint64_t{1} << partition_bits_;
  const uint64_t homes = (rows * kBucketsPerRow + partitions - 1) / partitions;
  const uint64_t words =
      (homes + kProbeThreshold - 1 + ConciseBitmap::kBitsPerWord - 1) / ConciseBitmap::kBitsPerWord;
  partition_buckets_ = words * ConciseBitmap::kBitsPerWord;
  bitmap_ = ConciseBitmap(words * partitions);

  std::vector<const uint8_t*> overflow;
  rows_ = staging_.build(BuildPolicy{*this}, static_cast<uint32_t>(partitions), bitmap_, overflow,
                         cancel);
  std::vector<uint64_t> hashes;
  hashes.reserve(overflow.size());
  for (const uint8_t* header : overflow) hashes.push_back(BuildPolicy::hash_of(header));
  overflow_ = OverflowIndex(std::move(hashes));
  staging_.release();
}

uint32_t ConciseHashTable::probe_batch(const uint64_t* hashes, const uint32_t* sel, uint32_t count,
                                       ConciseCursor* cursors, uint32_t* out_sel) const {
  return concise_select_rows(sel, count, out_sel, [&](uint32_t row) {
    cursors[row] = probe(hashes[row]);
    return cursors[row].valid();
  });
}

uint32_t ConciseHashTable::advance_batch(const uint64_t* hashes, const uint32_t* sel,
                                         uint32_t count, ConciseCursor* cursors,
                                         uint32_t* out_sel) const {
  return concise_select_rows(sel, count, out_sel, [&](uint32_t row) {
    cursors[row] = advance(hashes[row], cursors[row]);
    return cursors[row].valid();
  });
}

}  // namespace floe
