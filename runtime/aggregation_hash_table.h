// Hash aggregation with one table per worker (DESIGN.md "Aggregation"; Leis et al.,
// "Morsel-Driven Parallelism", SIGMOD 2014, section 4.4): each worker pre-aggregates into its
// own chaining table, then merge() combines equal groups partition by partition. The
// pre-aggregation table stays cache-sized: it grows up to kMaxLocalBits directory slots, and
// when that is full it is flushed (emptied; its groups stay in the arena for the merge, which
// folds them with later groups of the same key). Clustered keys (TPC-H q18's lineitems of one
// order) thus aggregate in cache instead of in a table of millions of groups.
// Entries never move (they live in an EntryArena), since generated code holds pointers to
// their payloads.
#pragma once

#include <cstdint>
#include <vector>

#include "runtime/entry_arena.h"
#include "runtime/hash.h"
#include "runtime/query_context.h"
#include "runtime/row_callbacks.h"

namespace floe {

struct AggregationEntry {
  AggregationEntry* next;
  uint64_t hash;
  // payload follows, 8-byte aligned

  uint8_t* payload() { return reinterpret_cast<uint8_t*>(this + 1); }
};
static_assert(sizeof(AggregationEntry) == 16);

class AggregationHashTable {
 public:
  AggregationHashTable(uint32_t payload_size, uint32_t worker_count);

  // First entry in the worker's table with this hash, or null; continue with next().
  AggregationEntry* lookup(uint32_t worker, uint64_t hash) { return workers_[worker].lookup(hash); }
  static AggregationEntry* next(AggregationEntry* entry, uint64_t hash) {
    for (entry = entry->next; entry; entry = entry->next)
      if (entry->hash == hash) return entry;
    return nullptr;
  }
  // A new group in the worker's table; returns its zeroed payload.
  uint8_t* insert(uint32_t worker, uint64_t hash) { return workers_[worker].insert(hash); }
  // Without GROUP BY: the worker's one group (hash 0, no keys), inserted on first use.
  uint8_t* global_group(uint32_t worker) {
    AggregationEntry* entry = lookup(worker, 0);
    return entry ? entry->payload() : insert(worker, 0);
  }

  // Combines the per-worker tables into the final group list: groups with equal keys from
  // different workers are folded with merge_fn, partition by partition in parallel (in the
  // caller's task arena). When only one worker has groups, it just collects them in
  // insertion order. Consumes the per-worker tables (their chains are relinked). Returns
  // false when merge_fn failed (the error is recorded in `query`); the groups are then
  // incomplete. Polls the query's cancel flag (runtime/cancellation.h) and throws
  // floe::Error when it is set.
  bool merge(RowEquality keys_equal, StateMerge merge_fn, QueryContext& query);

  uint64_t group_count() const { return groups_.size(); }             // after merge
  uint8_t* row(uint64_t index) { return groups_[index]->payload(); }  // after merge

 private:
  // One worker's chaining table; doubles its directory when it is half full, up to
  // kMaxLocalBits, then flushes.
  class LocalTable {
   public:
    explicit LocalTable(uint32_t payload_size);
    AggregationEntry* lookup(uint64_t hash) {
      AggregationEntry* entry = directory_[shape_.slot(HashDirectoryShape::scramble(hash))];
      if (!entry || entry->hash == hash) return entry;
      return next(entry, hash);
    }
    uint8_t* insert(uint64_t hash);
    const EntryArena& entries() const { return entries_; }
    // Whether groups of one key may be in the arena more than once.
    bool flushed() const { return flushed_; }

   private:
    void grow();
    void flush();

    EntryArena entries_;
    uint64_t resident_ = 0;  // entries reachable from the directory
    bool flushed_ = false;
    HashDirectoryShape shape_{HashDirectoryShape::kMinBits};
    std::vector<AggregationEntry*> directory_;
  };

  using Partition = std::vector<AggregationEntry*>;
  // Merges partition `partition` of every worker's scattered groups into `groups`; stops at
  // the first failing merge_fn.
  static void merge_partition(const std::vector<std::vector<Partition>>& scattered,
                              size_t partition, RowEquality keys_equal, StateMerge merge_fn,
                              WorkerContext* worker, Partition& groups);

  std::vector<LocalTable> workers_;
  std::vector<AggregationEntry*> groups_;
};

}  // namespace floe
