// The keys materialized rows are ordered by (a sort's ORDER BY, a window's PARTITION BY and
// ORDER BY and its RANGE offset bounds), described once in the plan layer: the compiled engine
// generates comparators from them (codegen/row_compare.h), the vectorized engine compares
// with a RowOrder over the same fields (runtime/vector/row_order.h).
#pragma once

#include <array>
#include <optional>
#include <vector>

#include "engine/plan/physical_description.h"
#include "runtime/vector/row_order.h"

namespace floe::plan {

struct RowKey {
  size_t field;
  SqlType type;
  bool descending = false;
  bool nulls_first = false;  // NULLs compare equal to each other
  // The second row's field, when it is another one of the same type (a window's RANGE
  // bound against the ORDER BY key).
  std::optional<size_t> other_field = std::nullopt;
};

// The ORDER BY keys of `sort`'s rows.
std::vector<RowKey> sort_keys(const SortOp& sort, const Materialization& rows);

struct WindowKeys {
  std::vector<RowKey> partition;
  std::vector<RowKey> order;
  // Per function, its RANGE offset bounds (start, end): the range key of a row against the
  // current row's bound (none for a bound without offset).
  std::vector<std::array<std::optional<RowKey>, 2>> range_bounds;
};

WindowKeys window_keys(const WindowOp& window, const Materialization& rows);

// The order of rows of `layout` by `keys`, as the generated comparator orders them.
vectorized::RowOrder row_order(const RowLayout& layout, const std::vector<RowKey>& keys);

}  // namespace floe::plan
