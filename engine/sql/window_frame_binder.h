// Window frame clauses (ROWS / RANGE / GROUPS, their bounds and EXCLUDE) → WindowFrame, with
// PostgreSQL's rules and errors (transformFrameOffset). ROWS and GROUPS offsets are counts;
// a RANGE offset is a value added to or subtracted from the ORDER BY key, so the frame
// brings expressions for the window's sink to compute per row: the current row's bounds and
// the key to compare them with.
#pragma once

#include <functional>
#include <vector>

#include "engine/plan/logical_plan.h"
#include "engine/sql/pg_node.h"

namespace floe::sql {

struct FrameClause {
  int32_t options = 0;  // PostgreSQL's WindowDef.frameOptions (0: the default frame)
  const Node* start_offset = nullptr;
  const Node* end_offset = nullptr;
};

struct BoundFrame {
  WindowFrame frame;
  // RANGE with an offset: see plan::WindowOp::Function.
  plan::ExprPtr range_key, start_bound, end_bound;
};

// Whether the frame clause names a frame of its own (PostgreSQL's FRAMEOPTION_NONDEFAULT).
bool has_frame_clause(int32_t options);

// `order`: the window's ORDER BY keys; `bind_offset` binds an offset expression (the
// window's scope, no aggregates). Errors point at `location`, the window.
BoundFrame bind_window_frame(const FrameClause& clause, const std::vector<plan::SortKey>& order,
                             const std::function<plan::ExprPtr(const Node*)>& bind_offset,
                             int location);

}  // namespace floe::sql
