// The window functions the runtime evaluates and their frames (runtime/window_evaluator.h);
// the logical plan's WindowOp uses them too.
#pragma once

#include <cstdint>

namespace floe {

enum class WindowFunctionKind : uint8_t {
  kRowNumber,
  kRank,
  kDenseRank,
  kPercentRank,
  kCumeDist,
  kNtile,
  kLag,
  kLead,
  kFirstValue,
  kLastValue,
  kNthValue,
  kAggregate,
};

// ROWS or RANGE frame. RANGE bounds are CURRENT ROW or UNBOUNDED only: CURRENT ROW means the
// first / last peer of the current row (rows with equal ORDER BY keys).
struct WindowFrame {
  enum class Bound : uint8_t {
    kUnboundedPreceding,
    kPreceding,  // `offset` rows before the current one
    kCurrentRow,
    kFollowing,  // `offset` rows after the current one
    kUnboundedFollowing,
  };
  bool rows = false;
  Bound start = Bound::kUnboundedPreceding;
  Bound end = Bound::kCurrentRow;
  uint64_t start_offset = 0;
  uint64_t end_offset = 0;

  bool operator==(const WindowFrame&) const = default;
};

}  // namespace floe
