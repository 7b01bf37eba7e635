// From materialized rows (and from other vectors) into DataChunk columns: the reverse of
// row_scatter.h, for the vectorized sources over materialized rows (a sort's or a window's
// rows, an aggregation's groups, a join's payloads) and for operators that rearrange rows.
#pragma once

#include <cstdint>

#include "runtime/vector/row_scatter.h"
#include "runtime/vector/vector.h"

namespace floe::vectorized {

// Reads field `field` of rows[0..n) into positions 0..n of `out` (owned, of the field's type,
// extent at least n); a set null flag clears the position's validity.
void gather_column(const uint8_t* const* rows, uint32_t n, RowFieldOffsets field, Vector& out);

// out[at + k] = from[positions[k]] for k in [0, n), values and validity (`out` owned, of
// `from`'s type, extent at least at + n). Strings keep pointing at their bytes.
void take_values(const Vector& from, const uint32_t* positions, uint32_t n, Vector& out,
                 uint32_t at = 0);

}  // namespace floe::vectorized
