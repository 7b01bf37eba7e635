#include "runtime/vector/key_match.h"

#include <type_traits>

#include "runtime/vector/primitives.h"
#include "storage/physical_order.h"

namespace floe::vectorized {
namespace {

template <typename T>
bool key_equal(const T& a, const T& b) {
  if constexpr (std::is_same_v<T, StringRef>) {
    return a == b;
  } else {
    return sql_compare(a, b) == 0;
  }
}

}  // namespace

uint32_t match_key_column(const Vector& probe, const uint32_t* sel, uint32_t n,
                          const uint8_t* const* rows, const RowSlot& slot, bool nulls_equal,
                          uint32_t* out) {
  return visit_physical(probe.physical(), [&](auto t) -> uint32_t {
    using T = decltype(t);
    const T* values = probe.values<T>();
    if (probe.all_valid() && slot.null_offset < 0) {
      return select_rows(sel, n, out,
                         [&](uint32_t p) { return key_equal(values[p], slot.load<T>(rows[p])); });
    }
    // Values are compared only where both sides are present (a NULL string may point
    // anywhere); the NULLs decide the others.
    return select_rows(sel, n, out, [&](uint32_t p) {
      bool probe_null = !probe.is_valid(p);
      bool row_null = slot.is_null(rows[p]);
      if (probe_null | row_null) return nulls_equal && probe_null && row_null;
      return key_equal(values[p], slot.load<T>(rows[p]));
    });
  });
}

}  // namespace floe::vectorized
