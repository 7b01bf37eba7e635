// Evaluation of window functions over materialized rows (Leis et al., "Efficient Processing
// of Window Functions in Analytical SQL Queries", VLDB 2015). The rows are hash-partitioned
// on their partition keys (a hash the generated code stored in each row), and each of the
// buckets is sorted and evaluated by a task of its own, so that windows with PARTITION BY
// run in parallel; without PARTITION BY the one partition is sorted in parallel, and a large
// partition is evaluated in parallel ranges of rows (section 4.4). The sorts compare entries
// that carry the partition hash, or integer ORDER BY keys, next to the row pointer, so that
// most comparisons touch no row. Aggregates over frames whose start moves (or with EXCLUDE)
// use a segment tree of aggregate states (section 4); the states and their
// update/merge/finalize functions are generated code, the very ones GROUP BY uses, so both
// compute the same. ROWS, RANGE and GROUPS frames are positions in the sorted partition:
// RANGE offsets by binary search with a generated comparator, GROUPS offsets through the
// peer groups (section 3.2).
#pragma once

#include <cstdint>
#include <vector>

#include "runtime/query_context.h"
#include "runtime/row_buffer.h"
#include "runtime/row_callbacks.h"
#include "runtime/window_frame.h"

namespace floe {

// Where a value lives in a materialized row; null_offset == kNeverNull for NOT NULL fields.
struct WindowField {
  static constexpr uint32_t kNeverNull = UINT32_MAX;
  uint32_t offset = 0;
  uint32_t null_offset = kNeverNull;
  uint32_t size = 0;
};

struct WindowFunctionSpec {
  WindowFunctionKind kind = WindowFunctionKind::kRowNumber;
  WindowFrame frame;
  // bigint for the ranks, double for percent_rank and cume_dist, integer for ntile, the
  // value's type for the value functions; aggregates write it in their finalize function.
  WindowField result;
  WindowField value;  // lag, lead, first_value, last_value, nth_value: the value copied
  // bigint: the buckets of ntile, the offset of lag and lead, the n of nth_value.
  bool has_parameter = false;
  WindowField parameter;
  bool has_default = false;  // lag, lead: the value outside the partition (else NULL)
  WindowField default_value;
  // RANGE frames with an offset bound: the sign of a row's ORDER BY key against the current
  // row's bound (its key minus or plus the offset), in the window's order: negative when the
  // row sorts before the bound. Called as (row, current row).
  RowComparator range_start = nullptr;
  RowComparator range_end = nullptr;
  // kAggregate: a zeroed state of `state_size` bytes is the empty aggregate. `mergeable`:
  // merge leaves `from` intact, so a segment tree may combine states; the aggregates that
  // collect their inputs (string_agg) move them instead, and each frame is aggregated anew.
  uint32_t state_size = 0;
  bool mergeable = true;
  StateUpdate update = nullptr;
  StateMerge merge = nullptr;
  StateFinalize finalize = nullptr;
};

// A leading ORDER BY key of integer representation (boolean, smallint, integer, bigint, date,
// timestamp, decimal of up to 18 digits: one scale per key), which the sort compares as an
// unsigned number without calling the generated comparator.
struct WindowSortKey {
  WindowField field;  // size 1, 2, 4 or 8
  bool descending = false;
  bool nulls_first = false;
};

struct WindowSpec {
  bool partitioned = false;  // PARTITION BY given: rows hold a bigint hash at hash_offset
  uint32_t hash_offset = 0;
  // The first (up to two) ORDER BY keys if they are integers; with PARTITION BY the sort
  // uses the first one only.
  std::vector<WindowSortKey> sort_keys;
  size_t order_key_count = 0;                     // ORDER BY keys in all
  RowComparator order = nullptr;           // partition keys, then ORDER BY keys
  RowComparator same_partition = nullptr;  // partition keys only (0 = equal)
  RowComparator peers = nullptr;           // ORDER BY keys only (0 = peers)
  std::vector<WindowFunctionSpec> functions;
};

// Computes every function of `spec` into each row of `rows` (finished), leaving the rows in
// partition order if `keep_order`, else in the order they were appended in (which reads
// them back faster). Runs its tasks in the caller's task arena. Returns false after
// recording an error in `query`; throws floe::Error when the statement is canceled.
bool evaluate_windows(RowBuffer& rows, const WindowSpec& spec, QueryContext& query,
                      bool keep_order = true);

}  // namespace floe
