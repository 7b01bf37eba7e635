// Between DataChunk columns and materialized rows (engine/plan/row_layout.h): the vectorized
// engine's sinks write a chunk's rows into fixed-size rows (result rows now; join build,
// aggregation and sort rows next), and its sources read them back (row_gather.h). A field is
// described by its offsets only, so that runtime/ needs no plan types: the value at `offset`
// in the vector's physical representation (strings as their StringRef, which keeps pointing at
// the bytes it points at), and, for a nullable field, a flag byte at `null_offset` (1 = NULL).
#pragma once

#include <cstdint>
#include <optional>

#include "runtime/vector/vector.h"

namespace floe::vectorized {

struct RowFieldOffsets {
  uint32_t offset = 0;
  std::optional<uint32_t> null_offset;  // none: the field is NOT NULL
};

// Writes the values at positions sel[0..n) (or 0..n) of `column` into field `field` of
// rows[0..n), one row per value in order. A NULL is stored as the zero of its type (safe to
// hash and compare) with its flag set. Returns false, writing nothing more, when a NULL meets
// a NOT NULL field.
bool scatter_column(const Vector& column, const uint32_t* sel, uint32_t n, uint8_t* const* rows,
                    RowFieldOffsets field);

}  // namespace floe::vectorized
