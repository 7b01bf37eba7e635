// The aggregation group rows of one AggregateOp as the vectorized engine sees them
// (plan::AggregateLayout resolved to row slots and state kernels), and the steps on them that
// the aggregation sink, its start and its merge share: find-or-insert a chunk's groups in a
// worker's AggregationHashTable, compare two rows' keys, fold one row's states into another.
#pragma once

#include <cstdint>
#include <unordered_set>
#include <vector>

#include "engine/plan/aggregate_layout.h"
#include "runtime/aggregation_hash_table.h"
#include "runtime/vector/aggregate_kernels.h"
#include "runtime/vector/row_scatter.h"
#include "runtime/vector/row_slot.h"

namespace floe::vectorized {

class GroupRows {
 public:
  explicit GroupRows(const plan::AggregateLayout& layout);

  size_t key_count() const { return keys_.size(); }
  const RowFieldOffsets& key_field(size_t k) const { return key_fields_[k]; }
  const std::vector<StateKernel>& kernels() const { return kernels_; }

  // rows[p] = the group row of position p for the rows sel[0..n) (null: 0..n) of key columns
  // `keys` (extent >= `extent`), in `worker`'s table of `table`: the group with equal keys
  // (NULLs equal) if the worker has one, else a new zeroed one that gets the keys. Strings of
  // new keys that are not inline are copied into the worker's string heap, so that the group
  // outlives the chunk (and a scan batch's buffers).
  void find_or_insert(AggregationHashTable& table, WorkerContext& worker,
                      const std::vector<Vector>& keys, const uint32_t* sel, uint32_t n,
                      uint32_t extent, uint8_t** rows);

  // The RowEquality and StateMerge of AggregationHashTable::merge; the context is the
  // GroupRows.
  static bool keys_equal(const uint8_t* a, const uint8_t* b, const void* context);
  static bool merge(WorkerContext* worker, uint8_t* into, const uint8_t* from, const void* context);

 private:
  void insert_missing(AggregationHashTable& table, WorkerContext& worker,
                      const std::vector<Vector>& keys, uint8_t** rows);

  std::vector<RowSlot> keys_;
  std::vector<RowFieldOffsets> key_fields_;
  std::vector<StateKernel> kernels_;

  // Per-chunk buffers, by position or by row.
  std::vector<uint64_t> hashes_;
  std::vector<AggregationEntry*> candidates_;
  std::vector<uint8_t*> candidate_rows_;
  std::vector<uint32_t> remaining_;  // rows without a group yet
  std::vector<uint32_t> pending_;    // rows whose chain walk goes on
  std::vector<uint32_t> matched_;
  std::vector<uint32_t> missing_;  // rows whose chain ended without an equal key
  std::vector<uint32_t> inserted_positions_;
  std::vector<uint8_t*> inserted_rows_;
  std::unordered_set<uint64_t> inserted_hashes_;
};

}  // namespace floe::vectorized
