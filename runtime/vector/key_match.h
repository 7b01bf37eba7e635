// The check step of the vectorized hash join and aggregation (X100 thesis §5.3,
// "check/recheck"): probe rows whose hash found a candidate row are compared with it, key
// column by key column, and only the rows that still match go on. Equality is SQL's, as in
// codegen/key_codegen.cpp (storage/physical_order.h's sql_compare: NaN = NaN, -0.0 = 0.0,
// intervals by span, strings bytewise); the key columns of both sides have one type.
#pragma once

#include <cstdint>

#include "runtime/vector/row_slot.h"
#include "runtime/vector/vector.h"

namespace floe::vectorized {

// Of the rows sel[0..n) (positions; null: 0..n), writes to `out` (may be `sel`) those whose
// value in `probe` equals the value in `slot` of their candidate row rows[p]; returns their
// count. A NULL equals nothing (join keys), unless `nulls_equal` (GROUP BY keys, IS NOT
// DISTINCT FROM join keys): then two NULLs are equal and a NULL differs from every value.
uint32_t match_key_column(const Vector& probe, const uint32_t* sel, uint32_t n,
                          const uint8_t* const* rows, const RowSlot& slot, bool nulls_equal,
                          uint32_t* out);

}  // namespace floe::vectorized
