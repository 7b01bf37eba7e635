// The rows a window sink materializes, laid out in the plan layer like a sort's (issue 9,
// "one physical layer"): the columns read above the window, the partition and ORDER BY keys,
// the functions' arguments and RANGE offset bounds, a hash of the partition keys, and a field
// for each function's result. The compiled engine (codegen/window_translator.cpp) writes and
// compares these rows; the vectorized engine can read the same description.
#pragma once

#include <array>
#include <optional>
#include <unordered_set>
#include <utility>
#include <vector>

#include "engine/plan/logical_plan.h"
#include "engine/plan/row_layout.h"

namespace floe::plan {

struct WindowLayout {
  // The first `passed_columns` of the Materialization's columns are the input's columns
  // stored in the row; the others are the functions' results.
  size_t passed_columns = 0;
  // The field of each WindowOp::partitions entry, and of each WindowOp::order key.
  std::vector<size_t> partition_fields;
  std::vector<size_t> order_fields;
  // A big int hash of the partition keys (partitioned windows only).
  std::optional<size_t> hash_field;
  struct Function {
    std::vector<size_t> argument_fields;  // of WindowOp::Function::arguments
    // RANGE offset bounds (start, end): the field of the bound's value, compared with the
    // field of the function's range key.
    size_t range_key_field = 0;
    std::array<std::optional<size_t>, 2> bound_fields;
    size_t result_field = 0;
  };
  std::vector<Function> functions;  // one per WindowOp::functions entry
  // Expressions that are no stored column, each computed into a field of its own, in field
  // order after the passed columns.
  std::vector<std::pair<const Expr*, size_t>> computed;
};

// The window's row: its layout, its columns (plan column -> field) and the fields above.
struct WindowRows {
  RowLayout layout;
  std::vector<std::pair<ColumnId, size_t>> columns;
  WindowLayout window;
};

// Lays out `window`'s rows; `used` holds the columns read above it (others are not stored).
WindowRows describe_window_rows(const WindowOp& window, const ColumnRegistry& registry,
                                const std::unordered_set<ColumnId>& used);

}  // namespace floe::plan
