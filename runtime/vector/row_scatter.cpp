#include "runtime/vector/row_scatter.h"

#include <cstring>

#include "runtime/vector/primitives.h"

namespace floe::vectorized {

bool scatter_column(const Vector& column, const uint32_t* sel, uint32_t n, uint8_t* const* rows,
                    RowFieldOffsets field) {
  return visit_physical(column.physical(), [&](auto t) {
    using T = decltype(t);
    const T* values = column.values<T>();
    for (uint32_t i = 0; i < n; ++i) {
      uint32_t p = sel ? sel[i] : i;
      bool valid = column.is_valid(p);
      if (!valid && !field.null_offset) return false;
      // Row fields sit at offsets aligned to at most 8: memcpy, not a typed store.
      const T value = valid ? values[p] : T{};
      std::memcpy(rows[i] + field.offset, &value, sizeof(T));
      if (field.null_offset) rows[i][*field.null_offset] = valid ? 0 : 1;
    }
    return true;
  });
}

}  // namespace floe::vectorized
