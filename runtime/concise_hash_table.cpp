#include "runtime/concise_hash_table.h"

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
    : table_(sizeof(uint64_t), payload_size, worker_count) {}

void ConciseHashTable::finalize(const std::atomic<bool>* cancel) {
  const unsigned partition_bits = table_.partition_bits_for_staged_rows();
  const uint64_t partitions = uint64_t{1} << partition_bits;
  // Homes for kBucketsPerRow buckets per row, and the buckets that are nobody's home.
  const uint64_t homes = (table_.staged_rows() * kBucketsPerRow + partitions - 1) / partitions;
  std::vector<const uint8_t*> overflow =
      table_.build(BuildPolicy{*this}, partition_bits, homes + kProbeThreshold - 1, cancel);
  std::vector<uint64_t> hashes;
  hashes.reserve(overflow.size());
  for (const uint8_t* header : overflow) hashes.push_back(BuildPolicy::hash_of(header));
  table_.finish(OverflowIndex(std::move(hashes)));
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
