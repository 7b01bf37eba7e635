// What CHT and CAT share (Barber et al., "Memory-Efficient Hash Joins", VLDB 2015, sections
// 2.2-2.3): thread-local staging of the build rows, and the partitioned two-pass build into
// one physical table:
//   0. each worker's staged rows are scattered into partitions (a counting sort of row
//      pointers); a partition owns a contiguous range of whole bitmap words;
//   1. pass 1, one task per partition: every row sets its bucket's bit (CHT: with linear
//      probing up to the threshold) or, finding none, goes to the overflow;
//   2. the prefix popcounts of each partition's words, counting on from the set bits of the
//      partitions before (the only step that needs them all);
//   3. pass 2, one task per partition: every row's payload goes to the array position of its
//      bucket (rank in the bitmap), overflow rows after all bitmap-ordered rows.
// Only the partitions' row counts cross tasks, so the build takes no latches (section 2.3).
#pragma once

#include <tbb/parallel_for.h>

#include <atomic>
#include <cstdint>
#include <cstring>
#include <memory>
#include <vector>

#include "runtime/cancellation.h"
#include "runtime/concise_bitmap.h"
#include "runtime/entry_arena.h"

namespace floe {

// Where a probe stands among a key's candidate rows: the current row (position in the
// table's array) and what comes after it. 8 bytes, so a vector of them is cheap.
struct ConciseCursor {
  static constexpr uint32_t kNoRow = UINT32_MAX;
  enum Step : uint32_t {
    kDone,           // no candidate after this one
    kArraySecond,    // next: position + 1, then the overflow (CHT)
    kOverflowFirst,  // next: the first matching overflow entry
    kOverflowNext,   // position is an overflow row; next: the next matching one
  };

  uint32_t position = kNoRow;
  uint32_t step = kDone;

  bool valid() const { return position != kNoRow; }
};

// Branch-free selection for the batch probes and filters: the rows r of sel[0, count) for
// which keep(r) holds go, in order, to out_sel (which may be sel); returns their count.
template <typename Keep>
uint32_t concise_select_rows(const uint32_t* sel, uint32_t count, uint32_t* out_sel,
                             const Keep& keep) {
  uint32_t kept = 0;
  for (uint32_t i = 0; i < count; ++i) {
    uint32_t row = sel[i];
    out_sel[kept] = row;
    kept += keep(row);
  }
  return kept;
}

// log2 of the partition count of a build of `rows` rows: partitions of at least
// 2^kMinPartitionBits rows (smaller tables build as one), at most 2^kMaxPartitionBits of them
// (plenty of tasks for work stealing).
unsigned concise_partition_bits(uint64_t rows);

// Rows, bitmap-ordered then overflow, each `stride` bytes (the payload rounded up to 8).
struct ConciseRows {
  std::unique_ptr<uint8_t[]> bytes;
  uint64_t stride = 0;
  uint32_t bitmap_rows = 0;  // rows [0, bitmap_rows) are in bitmap order
  uint32_t total = 0;

  uint8_t* row(uint32_t position) const { return bytes.get() + position * stride; }
  uint64_t memory_bytes() const { return total * stride; }
};

class ConciseStaging {
 public:
  // A staged row: `header_size` bytes (a multiple of 8, at least 8: hash or key) followed by
  // the payload.
  ConciseStaging(uint32_t header_size, uint32_t payload_size, uint32_t worker_count);

  // Build phase, thread-local: a zeroed row for `worker`.
  uint8_t* insert(uint32_t worker) { return workers_[worker].allocate(); }
  uint64_t size() const;
  uint32_t header_size() const { return header_size_; }
  uint32_t payload_size() const { return payload_size_; }

  // The two-pass build (see the top of this file) into `bitmap`, whose words split evenly
  // into `partitions` ranges. `policy` supplies, for a staged row's header:
  //   uint32_t partition(const uint8_t* header): its partition, or `partitions` for rows
  //       that go straight to the overflow;
  //   bool place(ConciseBitmap&, const uint8_t* header, uint64_t* bucket): pass 1, sets the
  //       row's bit within its partition's words and returns its bucket, or false: overflow.
  // Returns the rows; `overflow` receives the staged headers of the overflow rows in array
  // order. Headers of bitmap rows are overwritten, so the staging is spent afterwards.
  template <typename Policy>
  ConciseRows build(const Policy& policy, uint32_t partitions, ConciseBitmap& bitmap,
                    std::vector<const uint8_t*>& overflow, const std::atomic<bool>* cancel);

  // Frees the staged rows (after build(), once the overflow headers are consumed).
  void release() { workers_.clear(); }

 private:
  struct Scattered {
    std::vector<uint8_t*> rows;     // grouped by partition
    std::vector<uint64_t> offsets;  // partition p's rows: [offsets[p], offsets[p + 1])
  };
  template <typename PartitionOf>
  Scattered scatter(const PartitionOf& partition_of, uint32_t partition_count,
                    const std::atomic<bool>* cancel) const;

  uint32_t header_size_;
  uint32_t payload_size_;
  std::vector<EntryArena> workers_;
};

template <typename PartitionOf>
ConciseStaging::Scattered ConciseStaging::scatter(const PartitionOf& partition_of,
                                                  uint32_t partition_count,
                                                  const std::atomic<bool>* cancel) const {
  const size_t workers = workers_.size();
  // counts[w * partition_count + p]: worker w's rows in partition p, then their offsets.
  std::vector<uint64_t> counts(workers * partition_count, 0);
  tbb::parallel_for(size_t{0}, workers, [&](size_t w) {
    CancelPoll poll(cancel);
    uint64_t* mine = counts.data() + w * partition_count;
    workers_[w].for_each([&](uint8_t* row) {
      poll.tick();
      ++mine[partition_of(row)];
    });
  });
  Scattered result;
  result.offsets.assign(partition_count + 1, 0);
  uint64_t total = 0;
  for (uint32_t p = 0; p < partition_count; ++p) {
    result.offsets[p] = total;
    for (size_t w = 0; w < workers; ++w) {
      uint64_t count = counts[w * partition_count + p];
      counts[w * partition_count + p] = total;
      total += count;
    }
  }
  result.offsets[partition_count] = total;
  result.rows.resize(total);
  tbb::parallel_for(size_t{0}, workers, [&](size_t w) {
    CancelPoll poll(cancel);
    uint64_t* next = counts.data() + w * partition_count;
    workers_[w].for_each([&](uint8_t* row) {
      poll.tick();
      result.rows[next[partition_of(row)]++] = row;
    });
  });
  return result;
}

template <typename Policy>
ConciseRows ConciseStaging::build(const Policy& policy, uint32_t partitions, ConciseBitmap& bitmap,
                                  std::vector<const uint8_t*>& overflow,
                                  const std::atomic<bool>* cancel) {
  // Partition `partitions` collects the rows that skip the bitmap.
  Scattered scattered =
      scatter([&policy](const uint8_t* header) { return policy.partition(header); }, partitions + 1,
              cancel);

  // Pass 1: bits. A partition's bitmap rows move to the front of its range (their header now
  // holding the bucket), its overflow rows to `spilled`.
  std::vector<std::vector<const uint8_t*>> spilled(partitions + 1);
  std::vector<uint64_t> in_bitmap(partitions + 1, 0);
  tbb::parallel_for(uint32_t{0}, partitions + 1, [&](uint32_t p) {
    CancelPoll poll(cancel);
    uint64_t kept = scattered.offsets[p];
    for (uint64_t i = scattered.offsets[p]; i < scattered.offsets[p + 1]; ++i) {
      poll.tick();
      uint8_t* header = scattered.rows[i];
      uint64_t bucket;
      if (p < partitions && policy.place(bitmap, header, &bucket)) {
        std::memcpy(header, &bucket, sizeof bucket);  // the hash or key is not needed any more
        scattered.rows[kept++] = header;
      } else {
        spilled[p].push_back(header);
      }
    }
    in_bitmap[p] = kept - scattered.offsets[p];
  });

  // Prefix popcounts: a serial sum over partitions, then each partition's words.
  std::vector<uint64_t> bitmap_base(partitions + 1, 0);
  for (uint32_t p = 0; p < partitions; ++p) bitmap_base[p + 1] = bitmap_base[p] + in_bitmap[p];
  std::vector<uint64_t> overflow_base(partitions + 2, 0);
  overflow_base[0] = bitmap_base[partitions];
  for (uint32_t p = 0; p <= partitions; ++p)
    overflow_base[p + 1] = overflow_base[p] + spilled[p].size();
  const uint64_t words_per_partition = bitmap.word_count() / partitions;
  tbb::parallel_for(uint32_t{0}, partitions, [&](uint32_t p) {
    bitmap.finish_counts(p * words_per_partition, (p + 1) * words_per_partition, bitmap_base[p]);
  });

  // Pass 2: payloads to their positions.
  ConciseRows rows;
  rows.stride = (uint64_t{payload_size_} + 7) & ~uint64_t{7};
  rows.bitmap_rows = static_cast<uint32_t>(bitmap_base[partitions]);
  rows.total = static_cast<uint32_t>(overflow_base[partitions + 1]);
  rows.bytes.reset(new uint8_t[rows.total * rows.stride]);
  tbb::parallel_for(uint32_t{0}, partitions + 1, [&](uint32_t p) {
    CancelPoll poll(cancel);
    for (uint64_t i = 0; i < in_bitmap[p]; ++i) {
      poll.tick();
      const uint8_t* header = scattered.rows[scattered.offsets[p] + i];
      uint64_t bucket;
      std::memcpy(&bucket, header, sizeof bucket);
      std::memcpy(rows.row(static_cast<uint32_t>(bitmap.rank(bucket))), header + header_size_,
                  rows.stride);
    }
    for (size_t i = 0; i < spilled[p].size(); ++i) {
      poll.tick();
      std::memcpy(rows.row(static_cast<uint32_t>(overflow_base[p] + i)),
                  spilled[p][i] + header_size_, rows.stride);
    }
  });
  overflow.clear();
  overflow.reserve(rows.total - rows.bitmap_rows);
  for (const auto& list : spilled) overflow.insert(overflow.end(), list.begin(), list.end());
  return rows;
}

}  // namespace floe
