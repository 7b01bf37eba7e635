// Early filtering by the bitmaps of several joins (Barber et al., "Memory-Efficient Hash
// Joins", VLDB 2015, section 3.1), decided once for both engines: before the first CHT/CAT
// join of a pipeline probes, the probe row is checked against the bitmap of every CHT/CAT
// join of the pipeline that drops probe rows without a match (inner, semi, right outer, right
// semi/anti) and whose probe keys are plain columns. A row that some bitmap rules out has no
// match in that join, which would drop it: it goes no further, whatever the join order. Plain
// column keys only: evaluating an expression early could raise an error on a row that an
// earlier operator drops. The engines check that the key columns exist where the filter is
// (codegen/bitmap_filter_translator.cpp, engine/vector/bitmap_filter.cpp).
#pragma once

#include <cstddef>
#include <vector>

#include "engine/plan/physical_description.h"

namespace floe::plan {

// The position among pipeline.operators[0, own) of the first CHT/CAT join, where the filter
// goes; `own` when there is none.
size_t first_concise_join(const Pipeline& pipeline, size_t own,
                          const PhysicalDescription& physical);

// The joins from `position` on whose bitmaps the filter checks; empty when fewer than two
// (one join's probe reads its bitmap first anyway).
std::vector<const JoinOp*> bitmap_filter_joins(const Pipeline& pipeline, size_t position,
                                               const PhysicalDescription& physical);

}  // namespace floe::plan
