// Fixed-size rows that pipelines materialize: join payloads, aggregation groups, sort and
// window rows, result rows. Fields sit at naturally aligned offsets (at most 8), then one
// null byte per nullable field (1 = NULL); the size is a multiple of 8 (at least 8). Decided
// here, in the plan layer, so that the compiled and the vectorized engine read and write the
// same rows (codegen/row_codegen.h emits the loads and stores).
#pragma once

#include <cstdint>
#include <vector>

#include "runtime/vector/row_slot.h"
#include "storage/types.h"

namespace floe::plan {

struct RowField {
  SqlType type;
  bool nullable = true;
};

class RowLayout {
 public:
  RowLayout() = default;
  explicit RowLayout(std::vector<RowField> fields);

  size_t field_count() const { return fields_.size(); }
  const RowField& field(size_t index) const { return fields_[index]; }
  uint32_t offset(size_t index) const { return offsets_[index]; }
  uint32_t null_offset(size_t index) const { return null_offsets_[index]; }  // nullable only
  uint32_t size() const { return size_; }

 private:
  std::vector<RowField> fields_;
  std::vector<uint32_t> offsets_;
  std::vector<uint32_t> null_offsets_;
  uint32_t size_ = 0;
};

// Field `index` of `layout` for the runtime's vectorized primitives.
vectorized::RowSlot row_slot(const RowLayout& layout, size_t index);

}  // namespace floe::plan
