// Aggregate calls: which plan::AggregateFunction a call is, its arguments, FILTER, ORDER BY
// and WITHIN GROUP, and its result type, with PostgreSQL's names, argument types and errors
// (docs/sql.md "Aggregates").
#pragma once

#include <functional>
#include <string_view>

#include "engine/plan/logical_plan.h"
#include "engine/sql/pg_node.h"

namespace floe::sql {

bool is_aggregate_name(std::string_view name);

struct AggregateCallBinders {
  // An argument, ORDER BY key or direct argument of the call (nested aggregates are errors).
  std::function<plan::ExprPtr(const Node*)> argument;
  // The FILTER condition (a boolean).
  std::function<plan::ExprPtr(const Node*)> filter;
};

struct BoundAggregate {
  plan::AggregateOp::Aggregate call;  // all but its id
  SqlType type;
  bool nullable = true;
};

// The aggregate call `call` of an aggregate name; `grouped`: each group has input rows (not
// so without GROUP BY, where an aggregate over no rows is NULL). FILTER (WHERE c) becomes the
// argument CASE WHEN c THEN argument END: every aggregate but count(*) skips NULL inputs.
BoundAggregate bind_aggregate_call(const PgQuery__FuncCall& call,
                                   const AggregateCallBinders& binders, bool grouped);

}  // namespace floe::sql
