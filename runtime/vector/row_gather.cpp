#include "runtime/vector/row_gather.h"

#include <cstring>

#include "runtime/vector/primitives.h"

namespace floe::vectorized {

void gather_column(const uint8_t* const* rows, uint32_t n, RowFieldOffsets field, Vector& out) {
  visit_physical(out.physical(), [&](auto t) {
    using T = decltype(t);
    T* values = out.mutable_values<T>();
    for (uint32_t i = 0; i < n; ++i) std::memcpy(&values[i], rows[i] + field.offset, sizeof(T));
  });
  if (!field.null_offset) return;
  for (uint32_t i = 0; i < n; ++i) out.set_valid(i, rows[i][*field.null_offset] == 0);
}

void take_values(const Vector& from, const uint32_t* positions, uint32_t n, Vector& out,
                 uint32_t at) {
  visit_physical(from.physical(), [&](auto t) {
    using T = decltype(t);
    const T* in = from.values<T>();
    T* values = out.mutable_values<T>() + at;
    for (uint32_t k = 0; k < n; ++k) values[k] = in[positions[k]];
  });
  if (from.all_valid()) return;
  for (uint32_t k = 0; k < n; ++k) out.set_valid(at + k, from.is_valid(positions[k]));
}

}  // namespace floe::vectorized
