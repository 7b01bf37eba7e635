#include "runtime/vector/row_order.h"

#include "storage/physical_order.h"

namespace floe::vectorized {
namespace {

int32_t compare_key(const SortKeySlot& key, const uint8_t* a, const uint8_t* b) {
  bool a_null = key.first.is_null(a);
  bool b_null = key.second.is_null(b);
  if (a_null | b_null) {
    if (a_null & b_null) return 0;
    int32_t null_order = key.nulls_first ? -1 : 1;
    return a_null ? null_order : -null_order;
  }
  int order = visit_physical(key.first.type, [&](auto t) {
    using T = decltype(t);
    return sql_compare(key.first.load<T>(a), key.second.load<T>(b));
  });
  int32_t sign = (order > 0) - (order < 0);
  return key.descending ? -sign : sign;
}

}  // namespace

int32_t RowOrder::compare(const uint8_t* a, const uint8_t* b) const {
  for (const SortKeySlot& key : keys_) {
    if (int32_t order = compare_key(key, a, b)) return order;
  }
  return 0;
}

int32_t RowOrder::compare_rows(const uint8_t* a, const uint8_t* b, const void* order) {
  return static_cast<const RowOrder*>(order)->compare(a, b);
}

}  // namespace floe::vectorized
