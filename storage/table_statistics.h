// Table statistics for the optimizer's cardinality estimates: per column min/max, null count
// and a HyperLogLog distinct-count estimate. Tables cache them per column (Table::
// column_statistics) until their rows change.
#pragma once

#include <cstddef>
#include <cstdint>

#include "storage/value.h"

namespace floe {

class Table;

struct ColumnStatistics {
  uint64_t row_count = 0;  // of the table when computed (deleted rows left out, as below)
  uint64_t null_count = 0;
  double distinct_count = 0;  // of the non-null values (estimate)
  // Null Values when every value is NULL or the type has no useful order (intervals).
  Value min;
  Value max;
};

// Scans the column's hot chunks directly.
ColumnStatistics compute_column_statistics(const Table& table, size_t column);

}  // namespace floe
