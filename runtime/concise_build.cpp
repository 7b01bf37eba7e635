#include "runtime/concise_build.h"

#include <algorithm>
#include <bit>

namespace floe {

namespace {
// Not from the paper (it leaves the partition count open): large enough that a partition is
// worth a task, small enough that a table of a few million rows still spreads over workers.
constexpr unsigned kMinPartitionBits = 14;
constexpr unsigned kMaxPartitionBits = 8;
}  // namespace

unsigned concise_partition_bits(uint64_t rows) {
  uint64_t full_partitions = rows >> kMinPartitionBits;
  if (full_partitions == 0) return 0;
  return std::min<unsigned>(kMaxPartitionBits, std::bit_width(full_partitions) - 1);
}

ConciseStaging::ConciseStaging(uint32_t header_size, uint32_t payload_size, uint32_t worker_count)
    : header_size_(header_size), payload_size_(payload_size) {
  workers_.reserve(worker_count);
  for (uint32_t i = 0; i < worker_count; ++i) workers_.emplace_back(header_size + payload_size);
}

uint64_t ConciseStaging::size() const {
  uint64_t total = 0;
  for (const EntryArena& arena : workers_) total += arena.size();
  return total;
}

}  // namespace floe
