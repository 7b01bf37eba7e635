// The runtime objects behind a query's state array (`void** state`): one per slot of its
// physical description (engine/plan/physical_description.h: scanners per worker, hash
// tables, row buffers, LIMIT counters), built anew for every run. Pipelines, generated or
// interpreted, reach them only through this array.
#pragma once

#include <memory>
#include <vector>

#include "engine/plan/physical_description.h"
#include "runtime/aggregation_hash_table.h"
#include "runtime/concise_join_table.h"
#include "runtime/join_hash_table.h"
#include "runtime/row_buffer.h"
#include "runtime/scan_restriction.h"

namespace floe {

class QueryState {
 public:
  QueryState(const std::vector<plan::StateSlot>& slots, uint32_t worker_count,
             const ScanSettings& scan = {});

  // Whether restart() can ready a state of these slots for another run: scans (not those of
  // index nested-loop joins), row buffers and counters, the state of a single-pipeline plan
  // (hash tables would have to be emptied, which is no cheaper than making new ones).
  static bool restartable(const std::vector<plan::StateSlot>& slots);
  // Ready for another run over `slots` (those it was made with; scan restrictions and index
  // lookups may differ: a prepared statement's parameters) with `scan`'s settings of the same
  // vector size: scans look their index rows up again, row buffers and counters are emptied,
  // nothing is allocated anew (engine/exec/query_run.h).
  void restart(const std::vector<plan::StateSlot>& slots, const ScanSettings& scan);

  void** data() { return pointers_.data(); }

  JoinHashTable& join_table(uint32_t slot) { return *static_cast<JoinHashTable*>(pointers_[slot]); }
  ConciseJoinTable& concise_join_table(uint32_t slot) {
    return *static_cast<ConciseJoinTable*>(pointers_[slot]);
  }
  // A hash join's table of either kind (kJoinTable, kConciseJoinTable): builds it after its
  // build pipeline, and the units its unmatched-rows scan splits into morsels (chaining:
  // directory slots; CHT/CAT: rows).
  void finalize_join_table(uint32_t slot, const std::atomic<bool>* cancel);
  uint64_t join_scan_units(uint32_t slot);
  AggregationHashTable& aggregation_table(uint32_t slot) {
    return *static_cast<AggregationHashTable*>(pointers_[slot]);
  }
  RowBuffer& rows(uint32_t slot) { return *static_cast<RowBuffer*>(pointers_[slot]); }
  uint64_t counter(uint32_t slot) const;
  // What the scanners of a kScanCursors slot did, summed over the workers.
  ScanStatistics scan_statistics(uint32_t slot, uint32_t worker_count) const;
  // The row ids an index scan's kScanCursors slot reads; null for a sequential scan.
  const std::vector<uint64_t>* index_rows(uint32_t slot) const { return index_rows_[slot]; }

 private:
  std::vector<void*> pointers_;
  std::vector<plan::StateSlot::Kind> kinds_;              // per slot
  uint32_t worker_count_;
  std::vector<std::vector<uint64_t>*> index_rows_;  // per slot
  // The probe scans of index nested-loop joins: their row ids, filled from the join table in
  // `table_slot` when it is finalized.
  struct IndexJoin {
    uint32_t table_slot;
    IndexJoinLookup lookup;
    std::vector<uint64_t>* row_ids;
  };
  std::vector<IndexJoin> index_joins_;
  std::vector<std::shared_ptr<void>> owned_;
};

}  // namespace floe
