// Layout of aggregation group rows (DESIGN.md "Aggregation"): the group keys, then the states
// of the aggregate functions. A zeroed row is the empty state, so a group
// starts as the runtime inserts it. States:
//   count(*), count(x)       i64
//   sum(x)                   value of the result type (bigint for smallint/integer,
//                            numeric(38,s) i128 for bigint/decimal, double) + "has input" flag
//   avg(x)                   sum (numeric(38,s) i128, or double) + count, finalized to double
// Exact running sums fail the query when they leave their machine width ("bigint out of
// range", "numeric field overflow"), whether a tuple is added or two states are merged; a
// numeric sum's result must fit its 38 digits (checked when it is finalized).
//   min(x), max(x)           value of x's type + "has input" flag
//   bool_and(x), bool_or(x)  min / max of a boolean (false < true)
//   var_*(x), stddev_*(x)    count + sum + sum of squares: exact i128 numbers (scale s and
//                            2s) for integer/numeric x, so that merged partial states give
//                            the same answer in any order; Youngs-Cramer's sum and sum of
//                            squared deviations for double x, merged like PostgreSQL's
//                            float8_combine. Finalized to double (runtime_abi.h).
//   string_agg, percentile_cont, percentile_disc, mode
//                            a CollectedList (head, tail) of the non-NULL inputs
//                            (runtime/collected_values.h), ordered when finalized.
// Sums, minima and maxima of no (non-NULL) input are NULL.
// Both engines use this layout; codegen/aggregate_states.h emits the arithmetic on it.
#pragma once

#include <optional>
#include <vector>

#include "engine/plan/logical_plan.h"
#include "engine/plan/row_layout.h"
#include "runtime/vector/aggregate_kernels.h"

namespace floe::plan {

// Where one aggregate function keeps its state in the group row.
struct AggregateState {
  AggregateFunction function = AggregateFunction::kCountStar;
  SqlType argument_type;
  SqlType value_type;  // of the sum / extreme value
  size_t value_field = 0;
  size_t extra_field = 0;   // "has input" flag, or the count of avg
  size_t square_field = 0;  // variance: the sum of squares
  // Collected aggregates: the FloeCollectedOrder code, and the percentiles' fraction.
  int32_t order = 0;
  SqlType key_type;  // of string_agg's ORDER BY key
  std::optional<double> fraction;
};

struct AggregateLayout {
  std::vector<SqlType> key_types;  // group key i is field i
  std::vector<AggregateState> states;
  RowLayout layout;
};

// The FloeVarianceKind of a variance function (runtime_abi.h).
int32_t variance_kind(AggregateFunction function);

// Scale of a numeric type as a decimal (integers have scale 0).
uint8_t numeric_scale(const SqlType& type);

// The group row of `aggregate` (its result columns' types come from `registry`). Throws
// floe::NotSupported for aggregates no engine computes (a DISTINCT one the planner did not
// rewrite, sums of non-numbers).
AggregateLayout describe_aggregate(const AggregateOp& aggregate, const ColumnRegistry& registry);

// The error of an exact running sum (sum, avg) that leaves its machine width.
const char* sum_overflow_message(const AggregateState& state);

// `state` of a group row of `layout` for the vectorized kernels.
vectorized::StateKernel state_kernel(const AggregateState& state, const RowLayout& layout);

}  // namespace floe::plan
