// Morsel-driven scheduling (Leis et al., "Morsel-Driven Parallelism", SIGMOD 2014, section 3):
// a pipeline's input is cut into small ranges (morsels) that the workers of the query's task
// arena take one at a time, so that fast workers simply take more of them.
#pragma once

#include <cstdint>
#include <functional>
#include <vector>

#include "storage/table.h"

namespace floe {

struct Morsel {
  uint64_t begin;
  uint64_t end;
};

// DESIGN.md: morsels of 16K-64K rows; the small end keeps small tables spread over workers.
constexpr uint64_t kMorselRows = uint64_t{1} << 14;

// Row-id ranges (chunk << kChunkShift | row) of at most kMorselRows rows, never crossing a
// chunk; empty chunks give none.
std::vector<Morsel> table_morsels(const Table& table);
// An index scan's: row-id ranges around at most kMorselRows of the sorted `rows`, never
// crossing a chunk, so that no morsel goes to rows the index did not find.
std::vector<Morsel> row_id_morsels(const std::vector<uint64_t>& rows);
// [0, count) in ranges of at most kMorselRows.
std::vector<Morsel> index_morsels(uint64_t count);

// Calls work(morsel, worker) for every morsel, worker being the calling thread's index in
// the current task arena (call it inside task_arena::execute). The morsels go in parallel to
// whichever worker is free, or, when `in_order`, one after another to the calling thread.
// Once stop() returns true no further morsel starts.
void dispatch_morsels(const std::vector<Morsel>& morsels, bool in_order,
                      const std::function<bool()>& stop,
                      const std::function<void(const Morsel&, uint32_t worker)>& work);

}  // namespace floe
