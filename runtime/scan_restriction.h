// SARGable restrictions in the runtime's form (DESIGN.md "Scans"; Data Blocks paper §3.4):
// what the planner extracts from a scan's filters so that the vectorized scan can evaluate
// them on hot chunks and on the compressed data of Data Blocks, before any tuple reaches the
// generated code. A row passes a restriction only when its value is not NULL (except for
// IS NULL), so every restriction is exact: the generated code never re-evaluates it.
#pragma once

#include <cstdint>
#include <optional>
#include <vector>

#include "storage/row_versions.h"
#include "storage/value.h"

namespace floe {

class PredicateLog;

struct ScanRestriction {
  enum class Kind : uint8_t {
    kRange,      // low <= / < value <= / < high; either bound may be absent (=, <, BETWEEN, ...)
    kIn,         // value equals one of `values` (IN list of constants)
    kIsNull,     // IS NULL
    kIsNotNull,  // IS NOT NULL
  };
  struct Bound {
    Value value;  // of the column's type, never NULL
    bool inclusive = true;
    // A prepared statement's parameter (index of $n) whose value each run fills in (until
    // then `value` is a NULL placeholder: engine/plan/parameter_restrictions.h); -1: none.
    int32_t parameter = -1;
  };

  size_t column = 0;  // the table's column index
  Kind kind = Kind::kRange;
  std::optional<Bound> low;
  std::optional<Bound> high;
  std::vector<Value> values;  // kIn: distinct, non-NULL, of the column's type
};

// How the vectorized scan works, from the connection's settings (SET vector_size,
// sarg_pushdown, sma_skipping, psma).
struct ScanSettings {
  static constexpr uint32_t kDefaultVectorSize = 8192;  // Data Blocks paper §4: 8192
  uint32_t vector_size = kDefaultVectorSize;
  bool sma_skipping = true;  // skip Data Blocks whose min/max (or dictionary) rule a restriction out
  bool psma = true;          // narrow the scan range inside a Data Block with its PSMAs
  Snapshot snapshot;         // which versions of changed rows the scan reads (MVCC)
  // A serializable transaction's: each scan logs its table and restrictions here (the query
  // state does, when it opens the scan; runtime/predicate_log.h). Null: nothing is logged.
  PredicateLog* reads = nullptr;
};

// What one scan did, summed over its workers (EXPLAIN ANALYZE).
struct ScanStatistics {
  uint64_t blocks_skipped = 0;    // Data Blocks ruled out by SMA or dictionary
  uint64_t psma_rows_removed = 0; // rows of Data Blocks the PSMAs took out of the scan range
  uint64_t rows_matched = 0;      // rows that passed every restriction

  ScanStatistics& operator+=(const ScanStatistics& other) {
    blocks_skipped += other.blocks_skipped;
    psma_rows_removed += other.psma_rows_removed;
    rows_matched += other.rows_matched;
    return *this;
  }
};

}  // namespace floe
