#include "engine/plan/row_layout.h"

#include <algorithm>

namespace floe::plan {

RowLayout::RowLayout(std::vector<RowField> fields) : fields_(std::move(fields)) {
  uint32_t offset = 0;
  for (const auto& field : fields_) {
    auto size = static_cast<uint32_t>(physical_size(field.type.physical()));
    uint32_t align = std::min<uint32_t>(size, 8);
    offset = (offset + align - 1) / align * align;
    offsets_.push_back(offset);
    offset += size;
  }
  for (const auto& field : fields_) null_offsets_.push_back(field.nullable ? offset++ : 0);
  size_ = std::max<uint32_t>((offset + 7) / 8 * 8, 8);
}

vectorized::RowSlot row_slot(const RowLayout& layout, size_t index) {
  const RowField& field = layout.field(index);
  return {field.type.physical(), layout.offset(index),
          field.nullable ? static_cast<int32_t>(layout.null_offset(index)) : -1};
}

}  // namespace floe::plan
