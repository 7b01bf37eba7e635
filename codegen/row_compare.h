// Ordering of materialized rows by some of their fields (sort and window operators).
#pragma once

#include <string>
#include <vector>

#include "codegen/translator.h"
#include "engine/plan/row_keys.h"

namespace floe::codegen {

using plan::RowKey;  // engine/plan/row_keys.h

// Emits `int32 floe_<kind>_<pipeline>(const uint8_t* a, const uint8_t* b)`: -1/0/1 by the
// first of `keys` that differs (0 when there are none), honoring DESC and NULLS FIRST/LAST.
// Returns its name.
std::string emit_row_comparator(PipelineEnv& env, const std::string& kind, const RowLayout& layout,
                                const std::vector<RowKey>& keys);

}  // namespace floe::codegen
