// Materialized fixed-size rows: the input of a sort and the result of a query. Workers append
// into their own arenas; finish() gathers all rows into one order that sort() and
// apply_limit() then rearrange (by pointer: rows never move).
#pragma once

#include <atomic>
#include <cstdint>
#include <optional>
#include <vector>

#include "runtime/entry_arena.h"
#include "runtime/row_callbacks.h"

namespace floe {

class RowBuffer {
 public:
  RowBuffer(uint32_t row_size, uint32_t worker_count);

  // A zeroed row at a stable, 8-byte aligned address.
  uint8_t* append(uint32_t worker) { return workers_[worker].allocate(); }
  // Gathers all workers' rows, worker by worker in append order.
  void finish();
  // Drops every row, keeping memory for the next ones (a prepared statement's kept state).
  void clear();
  // After finish; stable. Sorts runs in parallel (in the caller's task arena), one per worker.
  // Polls `cancel` (runtime/cancellation.h) as it compares; throws floe::Error when set.
  void sort(RowComparator compare, const std::atomic<bool>* cancel = nullptr);
  // After sort: keeps rows [offset, offset + limit).
  void apply_limit(uint64_t offset, std::optional<uint64_t> limit);

  uint64_t size() const { return rows_.size(); }         // after finish
  uint8_t* row(uint64_t index) { return rows_[index]; }  // after finish
  // After finish: the rows in their current order, for operators that rearrange them.
  std::vector<uint8_t*>& order() { return rows_; }
  uint32_t row_size() const { return row_size_; }

 private:
  uint32_t row_size_;
  std::vector<EntryArena> workers_;
  std::vector<uint8_t*> rows_;
};

}  // namespace floe
