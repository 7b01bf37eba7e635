#include "runtime/aggregation_hash_table.h"

namespace floe {

namespace {
// The merge splits groups into 2^kPartitionBits partitions by the top bits of the scrambled
// hash; partitions share no keys, so each could be merged by a different worker.
constexpr unsigned kPartitionBits = 6;
}  // namespace

AggregationHashTable::LocalTable::LocalTable(uint32_t payload_size)
    : entries_(sizeof(AggregationEntry) + payload_size), directory_(shape_.capacity(), nullptr) {}

uint8_t* AggregationHashTable::LocalTable::insert(uint64_t hash) {
  if (2 * (entries_.size() + 1) > shape_.capacity()) grow();
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

AggregationHashTable::AggregationHashTable(uint32_t payload_size, uint32_t worker_count) {
  workers_.reserve(worker_count);
  for (uint32_t i = 0; i < worker_count; ++i) workers_.emplace_back(payload_size);
}

void AggregationHashTable::merge(KeysEqualFn keys_equal, MergeFn merge_fn) {
  groups_.clear();
  if (workers_.size() == 1) {
    groups_.reserve(workers_[0].entries().size());
    workers_[0].entries().for_each(
        [this](uint8_t* bytes) { groups_.push_back(reinterpret_cast<AggregationEntry*>(bytes)); });
    return;
  }
  std::vector<std::vector<AggregationEntry*>> partitions(size_t{1} << kPartitionBits);
  for (const LocalTable& table : workers_) {
    table.entries().for_each([&](uint8_t* bytes) {
      auto* entry = reinterpret_cast<AggregationEntry*>(bytes);
      partitions[HashDirectoryShape::scramble(entry->hash) >> (64 - kPartitionBits)].push_back(
          entry);
    });
  }
  for (const auto& partition : partitions) merge_partition(partition, keys_equal, merge_fn);
}

void AggregationHashTable::merge_partition(const std::vector<AggregationEntry*>& partition,
                                           KeysEqualFn keys_equal, MergeFn merge_fn) {
  // Within a partition the top kPartitionBits are equal, so the slot uses the bits below.
  HashDirectoryShape shape = HashDirectoryShape::for_entries(partition.size());
  std::vector<AggregationEntry*> directory(shape.capacity(), nullptr);
  for (AggregationEntry* entry : partition) {
    AggregationEntry*& head =
        directory[shape.slot(HashDirectoryShape::scramble(entry->hash) << kPartitionBits)];
    AggregationEntry* match = head;
    while (match && !(match->hash == entry->hash && keys_equal(match->payload(), entry->payload())))
      match = match->next;
    if (match) {
      merge_fn(match->payload(), entry->payload());
    } else {
      entry->next = head;
      head = entry;
      groups_.push_back(entry);
    }
  }
}

}  // namespace floe
