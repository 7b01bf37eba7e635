#include "runtime/aggregation_hash_table.h"

#include <tbb/parallel_for.h>

#include <algorithm>

#include "runtime/cancellation.h"

namespace floe {

namespace {
// The merge splits groups into 2^kPartitionBits partitions by the top bits of the scrambled
// hash; partitions share no keys, so each is merged by a different task.
constexpr unsigned kPartitionBits = 6;
// 2^18 slots of 8 bytes: the directory (2 MiB) and its up to 2^17 groups stay near the cache.
constexpr unsigned kMaxLocalBits = 18;
}  // namespace

AggregationHashTable::LocalTable::LocalTable(uint32_t payload_size)
    : entries_(sizeof(AggregationEntry) + payload_size), directory_(shape_.capacity(), nullptr) {}

uint8_t* AggregationHashTable::LocalTable::insert(uint64_t hash) {
  if (2 * (resident_ + 1) > shape_.capacity()) {
    if (shape_.bits() < kMaxLocalBits)
      grow();
    else
      flush();
  }
  ++resident_;
  auto* entry = reinterpret_cast<AggregationEntry*>(entries_.allocate());
  entry->hash = hash;
  AggregationEntry*& head = directory_[shape_.slot(HashDirectoryShape::scramble(hash))];
  entry->next = head;
  head = entry;
  return entry->payload();
}

void AggregationHashTable::LocalTable::grow() {
  HashDirectoryShape bigger(shape_.bits() + 1);
  std::vector<AggregationEntry*> directory(bigger.capacity(), nullptr);
  for (AggregationEntry* chain : directory_) {
    while (chain) {
      AggregationEntry* entry = chain;
      chain = chain->next;
      AggregationEntry*& head = directory[bigger.slot(HashDirectoryShape::scramble(entry->hash))];
      entry->next = head;
      head = entry;
    }
  }
  shape_ = bigger;
  directory_ = std::move(directory);
}

void AggregationHashTable::LocalTable::flush() {
  std::fill(directory_.begin(), directory_.end(), nullptr);
  resident_ = 0;
  flushed_ = true;
}

AggregationHashTable::AggregationHashTable(uint32_t payload_size, uint32_t worker_count) {
  workers_.reserve(worker_count);
  for (uint32_t i = 0; i < worker_count; ++i) workers_.emplace_back(payload_size);
}

bool AggregationHashTable::merge(RowEquality keys_equal, StateMerge merge_fn, QueryContext& query) {
  groups_.clear();
  size_t filled = std::count_if(workers_.begin(), workers_.end(),
                                [](const LocalTable& table) { return table.entries().size() > 0; });
  bool flushed = std::any_of(workers_.begin(), workers_.end(),
                             [](const LocalTable& table) { return table.flushed(); });
  if (filled <= 1 && !flushed) {
    // Nothing to fold: the groups are the one filled table's, in insertion order.
    for (const LocalTable& table : workers_) {
      table.entries().for_each([this](uint8_t* bytes) {
        groups_.push_back(reinterpret_cast<AggregationEntry*>(bytes));
      });
    }
    return true;
  }
  // Phase 1: every worker's groups are split into partitions, one task per worker.
  constexpr size_t kPartitions = size_t{1} << kPartitionBits;
  std::vector<std::vector<Partition>> scattered(workers_.size(),
                                                std::vector<Partition>(kPartitions));
  tbb::parallel_for(size_t{0}, workers_.size(), [&](size_t worker) {
    CancelPoll poll(query.cancel_flag());
    workers_[worker].entries().for_each([&](uint8_t* bytes) {
      poll.tick();
      auto* entry = reinterpret_cast<AggregationEntry*>(bytes);
      scattered[worker][HashDirectoryShape::scramble(entry->hash) >> (64 - kPartitionBits)]
          .push_back(entry);
    });
  });
  // Phase 2: partitions share no keys, so each is merged by a task of its own. The groups
  // come out partition by partition, each in worker order. merge_fn only reports errors
  // through its worker, so all tasks may share worker 0's context (QueryContext::fail is
  // thread-safe).
  std::vector<Partition> merged(kPartitions);
  tbb::parallel_for(size_t{0}, kPartitions, [&](size_t partition) {
    if (query.failed()) return;
    merge_partition(scattered, partition, keys_equal, merge_fn, &query.worker(0),
                    merged[partition]);
  });
  if (query.failed()) return false;
  size_t total = 0;
  for (const Partition& groups : merged) total += groups.size();
  groups_.reserve(total);
  for (const Partition& groups : merged)
    groups_.insert(groups_.end(), groups.begin(), groups.end());
  return true;
}

void AggregationHashTable::merge_partition(const std::vector<std::vector<Partition>>& scattered,
                                           size_t partition, RowEquality keys_equal,
                                           StateMerge merge_fn, WorkerContext* worker,
                                           Partition& groups) {
  CancelPoll poll(worker->query->cancel_flag());
  size_t entries = 0;
  for (const auto& worker_groups : scattered) entries += worker_groups[partition].size();
  // Within a partition the top kPartitionBits are equal, so the slot uses the bits below.
  HashDirectoryShape shape = HashDirectoryShape::for_entries(entries);
  std::vector<AggregationEntry*> directory(shape.capacity(), nullptr);
  for (const auto& worker_groups : scattered) {
    for (AggregationEntry* entry : worker_groups[partition]) {
      poll.tick();
      AggregationEntry*& head =
          directory[shape.slot(HashDirectoryShape::scramble(entry->hash) << kPartitionBits)];
      AggregationEntry* match = head;
      while (match &&
             !(match->hash == entry->hash && keys_equal(match->payload(), entry->payload())))
        match = match->next;
      if (match) {
        if (!merge_fn(worker, match->payload(), entry->payload())) return;
      } else {
        entry->next = head;
        head = entry;
        groups.push_back(entry);
      }
    }
  }
}

}  // namespace floe
