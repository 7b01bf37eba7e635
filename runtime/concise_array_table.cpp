#include "runtime/concise_array_table.h"

#include <array>

namespace floe {

// Pass 1 of the build for one staged row (header: its key): the key's own bit, or overflow
// when the key is out of range or its bit is taken (a duplicate).
struct ConciseArrayTable::BuildPolicy {
  const ConciseArrayTable& table;
  uint32_t partitions;

  bool dense_of(const uint8_t* header, uint64_t* dense) const {
    std::array<int64_t, DenseKeyLayout::kMaxColumns> key;
    std::memcpy(key.data(), header, table.key_bytes());
    return table.layout_.pack(key.data(), dense);
  }
  uint32_t partition(const uint8_t* header) const {
    uint64_t dense;
    if (!dense_of(header, &dense)) return partitions;
    return static_cast<uint32_t>(table.partition_of(dense));
  }
  bool place(ConciseBitmap& bitmap, const uint8_t* header, uint64_t* bucket) const {
    uint64_t dense = 0;
    dense_of(header, &dense);  // in range: partition() said so
    *bucket = table.bucket_of(dense);
    if (bitmap.test(*bucket)) return false;
    bitmap.set(*bucket);
    return true;
  }
};

ConciseArrayTable::ConciseArrayTable(DenseKeyLayout layout, uint32_t payload_size,
                                     uint32_t worker_count)
    : layout_(std::move(layout)), table_(key_bytes(), payload_size, worker_count) {}

void ConciseArrayTable::finalize(const std::atomic<bool>* cancel) {
  const unsigned partition_bits = table_.partition_bits_for_staged_rows();
  // A partition's buckets: the high bits of the dense keys of its range.
  const uint64_t highs = ((layout_.range() - 1) >> partition_bits) + 1;
  std::vector<const uint8_t*> overflow = table_.build(
      BuildPolicy{*this, uint32_t{1} << partition_bits}, partition_bits, highs, cancel);
  std::vector<uint64_t> hashes;
  hashes.reserve(overflow.size());
  overflow_keys_.resize(overflow.size() * layout_.columns());
  for (size_t i = 0; i < overflow.size(); ++i) {
    int64_t* key = overflow_keys_.data() + i * layout_.columns();
    std::memcpy(key, overflow[i], key_bytes());
    hashes.push_back(key_hash(key));
    uint64_t dense = 0;
    (layout_.pack(key, &dense) ? in_range_overflow_ : out_of_range_overflow_) = true;
  }
  table_.finish(OverflowIndex(std::move(hashes)));
}

ConciseCursor ConciseArrayTable::overflow_match(uint32_t entry, uint64_t hash,
                                                const int64_t* key) const {
  for (; entry != OverflowIndex::kNone; entry = table_.overflow().next(entry, hash)) {
    if (std::memcmp(overflow_keys_.data() + entry * layout_.columns(), key, key_bytes()) == 0)
      break;
  }
  return table_.overflow_row(entry);
}

uint32_t ConciseArrayTable::probe_batch(const int64_t* const* key_columns, const uint32_t* sel,
                                        uint32_t count, ConciseCursor* cursors,
                                        uint32_t* out_sel) const {
  return concise_select_rows(sel, count, out_sel, [&](uint32_t row) {
    cursors[row] = probe(gather_key_row(key_columns, layout_.columns(), row).data());
    return cursors[row].valid();
  });
}

uint32_t ConciseArrayTable::advance_batch(const int64_t* const* key_columns, const uint32_t* sel,
                                          uint32_t count, ConciseCursor* cursors,
                                          uint32_t* out_sel) const {
  return concise_select_rows(sel, count, out_sel, [&](uint32_t row) {
    cursors[row] =
        advance(gather_key_row(key_columns, layout_.columns(), row).data(), cursors[row]);
    return cursors[row].valid();
  });
}

}  // namespace floe
