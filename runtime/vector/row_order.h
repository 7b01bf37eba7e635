// The order of materialized rows by sort keys, in C++: the same order as the comparators
// codegen/row_compare.cpp generates (ASC/DESC, NULLS FIRST/LAST, storage/physical_order.h's
// sql_compare per type), for the vectorized engine's sort and window operators. comparator()
// hands it to the runtime's tables (runtime/row_callbacks.h) and parallel_stable_sort.
#pragma once

#include <cstdint>
#include <vector>

#include "runtime/row_callbacks.h"
#include "runtime/vector/row_slot.h"

namespace floe::vectorized {

struct SortKeySlot {
  RowSlot first;   // of the first row
  RowSlot second;  // of the second row: the same field, or another one of the same type
                   // (a window's RANGE bound against the ORDER BY key)
  bool descending = false;
  bool nulls_first = false;  // NULLs are equal to each other
};

class RowOrder {
 public:
  explicit RowOrder(std::vector<SortKeySlot> keys) : keys_(std::move(keys)) {}

  // -1/0/1: a before, tied with or after b by the first key that differs.
  int32_t compare(const uint8_t* a, const uint8_t* b) const;
  bool less(const uint8_t* a, const uint8_t* b) const { return compare(a, b) < 0; }
  // A RowComparator over this order (which must outlive it).
  RowComparator comparator() const { return RowComparator(&compare_rows, this); }

 private:
  static int32_t compare_rows(const uint8_t* a, const uint8_t* b, const void* order);

  std::vector<SortKeySlot> keys_;
};

}  // namespace floe::vectorized
