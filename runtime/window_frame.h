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

// A frame: ROWS counts rows, GROUPS counts peer groups (rows with equal ORDER BY keys), and
// RANGE compares ORDER BY key values. CURRENT ROW means the current row itself (ROWS) or its
// first / last peer (RANGE, GROUPS). A RANGE offset bound (`n PRECEDING` / `n FOLLOWING`) is
// found through a comparator of the window (WindowFunctionSpec::range_start / range_end), as
// the offset is a value of the key's type; ROWS and GROUPS offsets are counts.
struct WindowFrame {
  enum class Unit : uint8_t { kRows, kRange, kGroups };
  enum class Bound : uint8_t {
    kUnboundedPreceding,
    kPreceding,  // `offset` rows / groups / key values before the current row
    kCurrentRow,
    kFollowing,  // `offset` rows / groups / key values after the current row
    kUnboundedFollowing,
  };
  // EXCLUDE: rows taken out of the frame (PostgreSQL's frame_exclusion).
  enum class Exclusion : uint8_t {
    kNoOthers,
    kCurrentRow,
    kGroup,  // the current row and its peers
    kTies,   // its peers but not the current row
  };
  Unit unit = Unit::kRange;
  Bound start = Bound::kUnboundedPreceding;
  Bound end = Bound::kCurrentRow;
  uint64_t start_offset = 0;  // ROWS and GROUPS
  uint64_t end_offset = 0;
  Exclusion exclusion = Exclusion::kNoOthers;

  bool operator==(const WindowFrame&) const = default;
};

}  // namespace floe
