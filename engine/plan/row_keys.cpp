#include "engine/plan/row_keys.h"

namespace floe::plan {

std::vector<RowKey> sort_keys(const SortOp& sort, const Materialization& rows) {
  std::vector<RowKey> keys;
  for (size_t k = 0; k < sort.keys.size(); ++k) {
    const SortKey& key = sort.keys[k];
    keys.push_back({rows.key_fields[k], key.expr->type, key.descending, key.nulls_first});
  }
  return keys;
}

WindowKeys window_keys(const WindowOp& window, const Materialization& rows) {
  const WindowLayout& fields = *rows.window;
  WindowKeys keys;
  for (size_t k = 0; k < window.partitions.size(); ++k)
    keys.partition.push_back({fields.partition_fields[k], window.partitions[k]->type});
  for (size_t k = 0; k < window.order.size(); ++k) {
    const SortKey& key = window.order[k];
    keys.order.push_back({fields.order_fields[k], key.expr->type, key.descending, key.nulls_first});
  }
  for (size_t f = 0; f < window.functions.size(); ++f) {
    const WindowLayout::Function& function = fields.functions[f];
    auto& bounds = keys.range_bounds.emplace_back();
    for (size_t i = 0; i < 2; ++i) {
      if (!function.bound_fields[i]) continue;
      const SortKey& key = window.order[0];
      bounds[i] = RowKey{function.range_key_field, window.functions[f].range_key->type,
                         key.descending, key.nulls_first, function.bound_fields[i]};
    }
  }
  return keys;
}

vectorized::RowOrder row_order(const RowLayout& layout, const std::vector<RowKey>& keys) {
  std::vector<vectorized::SortKeySlot> slots;
  for (const RowKey& key : keys) {
    slots.push_back({row_slot(layout, key.field),
                     row_slot(layout, key.other_field.value_or(key.field)), key.descending,
                     key.nulls_first});
  }
  return vectorized::RowOrder(std::move(slots));
}

}  // namespace floe::plan
