// Where a field of materialized rows (plan::RowLayout) sits, in the form the row scatter and
// gather primitives (runtime/vector/row_scatter.h, row_gather.h) take: shared by every
// vectorized operator that writes or reads rows (join build and probe, sort, window).
#pragma once

#include <cstddef>

#include "engine/plan/row_layout.h"
#include "runtime/vector/row_scatter.h"

namespace floe::vectorized {

inline RowFieldOffsets field_offsets(const plan::RowLayout& layout, size_t field) {
  RowFieldOffsets offsets{layout.offset(field), std::nullopt};
  if (layout.field(field).nullable) offsets.null_offset = layout.null_offset(field);
  return offsets;
}

}  // namespace floe::vectorized
