// Loads generated TPC-H data straight into floe tables, without going through .tbl text:
// row ranges are generated in parallel into column batches (row_batch.h) and appended in
// order, so the tables are identical to COPY of dbgen's files.
#pragma once

#include <cstdint>
#include <functional>
#include <vector>

#include "storage/catalog.h"

namespace floe::tpch {

// Where a load stands: the tables of the current generation pass (part and partsupp,
// orders and lineitem are generated together) and how many of its parent rows are in.
struct LoadStatus {
  std::vector<const Table*> tables;
  int64_t parents_done;
  int64_t parents_total;
};
using LoadProgress = std::function<void(const LoadStatus&)>;

// Appends the eight tables' rows; the tables must exist in `catalog` with the columns of
// tpch/schema.sql. `threads` = 0 uses all cores. `progress` (optional) is called from
// the loading thread after every appended range, `poll` (optional) every few milliseconds
// before the first (while dbgen's text pool is built); either may throw to stop the load, and
// the exception passes on. With `freeze`, every chunk is frozen into a Data Block as soon as
// it is full (in parallel with the generation, which keeps the peak memory near the
// compressed size), as bulk loads do by default. Throws floe::Error.
void load_tables(Catalog& catalog, double scale_factor, int threads,
                 const LoadProgress& progress = {}, bool freeze = false,
                 const std::function<void()>& poll = {});

}  // namespace floe::tpch
