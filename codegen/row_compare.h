// Ordering of materialized rows by some of their fields (sort and window operators).
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "codegen/translator.h"

namespace floe::codegen {

struct RowKey {
  size_t field;
  SqlType type;
  bool descending = false;
  bool nulls_first = false;  // NULLs compare equal to each other
  // The second row's field, when it is another one of the same type (a window's RANGE
  // bound against the ORDER BY key).
  std::optional<size_t> other_field = std::nullopt;
};

// Emits `int32 floe_<kind>_<pipeline>(const uint8_t* a, const uint8_t* b)`: -1/0/1 by the
// first of `keys` that differs (0 when there are none), honoring DESC and NULLS FIRST/LAST.
// Returns its name.
std::string emit_row_comparator(PipelineEnv& env, const std::string& kind, const RowLayout& layout,
                                const std::vector<RowKey>& keys);

}  // namespace floe::codegen
