// The join table for a hash join's build side under `SET join_table = 'auto'`: CAT when the
// join keys are integers whose range is dense enough (the rule and its threshold:
// choose_cat_layout in runtime/dense_key_layout.h, after Barber et al., VLDB 2015, sections
// 1.1.3 and 2.4.1), else CHT.
#pragma once

#include <cstdint>
#include <optional>
#include <span>

#include "runtime/dense_key_layout.h"

namespace floe {

enum class JoinTableKind : uint8_t { kChaining, kCht, kCat };

struct JoinTableChoice {
  JoinTableKind kind;
  std::optional<DenseKeyLayout> cat_layout;  // for kCat
};

// `integer_key_columns`: the stats of every key column when all of them are integers, else
// empty.
inline JoinTableChoice choose_join_table(std::span<const KeyStats> integer_key_columns) {
  std::optional<DenseKeyLayout> layout = choose_cat_layout(integer_key_columns);
  if (!layout) return {JoinTableKind::kCht, std::nullopt};
  return {JoinTableKind::kCat, std::move(layout)};
}

}  // namespace floe
