// Aggregate-state kernels of the vectorized aggregation (X100 thesis §5.3, the aggr_*
// primitives): they update, merge and finalize the states of aggregation group rows laid out
// as engine/plan/aggregate_layout.h says (plan::state_kernel describes one state for them),
// the rows generated code works on too. The semantics are generated code's
// (codegen/aggregate_states.cpp): what is more than an addition is one C++ function both
// call (runtime/aggregate_math.h, the floe_rt_variance_*, floe_rt_collect* and final
// functions of runtime_abi.h). Overflow is checked once per vector: the loop ORs each row's
// overflow flag, and the kernel fails after it.
//
// Row pointers: rows[p] is the group row of the input row at position p (the hash table's
// answer for it); several positions may share one group row. Kernels return false after
// recording an error with the worker's QueryContext, as generated code does.
#pragma once

#include <cstdint>
#include <optional>

#include "runtime/query_context.h"
#include "runtime/vector/row_slot.h"
#include "runtime/vector/vector.h"

namespace floe::vectorized {

enum class StateKind : uint8_t {
  kCountStar,
  kCount,
  kSum,
  kAvg,
  kMin,  // min, bool_and
  kMax,  // max, bool_or
  kVariance,
  kStringAgg,
  kPercentileCont,
  kPercentileDisc,
  kMode,
};

// One aggregate's state in a group row (plan::AggregateState, resolved to offsets).
struct StateKernel {
  StateKind kind = StateKind::kCountStar;
  PhysicalType argument = PhysicalType::kInt64;  // the input's physical type
  PhysicalType result = PhysicalType::kInt64;    // the finalized value's physical type
  // count: the count; sum, min, max: the value (of the sum's / argument's type); avg: the
  // sum; variance: the count; collected: the CollectedList (two fields from here).
  RowSlot value;
  // sum, min, max: the "has input" flag; avg: the count; variance: the sum.
  RowSlot extra;
  RowSlot squares;                 // variance: the sum of squares (of the sum's type)
  const char* overflow = nullptr;  // sum, avg: the error of an exact sum beyond its width
  uint8_t precision = 0;           // sum of numerics: the result's precision (0: none)
  uint8_t scale = 0;               // avg: the sum's scale; variance: the argument's
  int32_t variance_kind = 0;       // FloeVarianceKind
  int32_t order = 0;               // collected: the FloeCollectedOrder code
  std::optional<double> fraction;  // percentiles: the fraction (none: NULL)
};

// Empties the state in `row` (a zeroed state is empty).
void init_state(const StateKernel& kernel, uint8_t* row);

// Adds the rows sel[0..n) (positions; null: 0..n) to their group rows. `argument` is the
// aggregate's input (null for count(*)); string_agg also takes its `delimiter` (a NULL one
// adds nothing) and its ORDER BY key `order_key` (null: none).
bool update_states(const StateKernel& kernel, WorkerContext& worker, const Vector* argument,
                   const uint32_t* sel, uint32_t n, uint8_t* const* rows,
                   const Vector* delimiter = nullptr, const Vector* order_key = nullptr);

// Folds the states of from[i] into into[i] for i < n (the merge of workers' groups; a
// collected state moves its items, leaving from[i]'s list to be dropped).
bool combine_states(const StateKernel& kernel, WorkerContext& worker, uint8_t* const* into,
                    uint8_t* const* from, uint32_t n);

// Writes the final value of rows[i]'s state to position i of `out` (an owned vector of the
// aggregate's result type, extent >= n), or clears its validity bit for NULL. Strings are
// allocated in the worker's string heap.
bool finalize_states(const StateKernel& kernel, WorkerContext& worker, const uint8_t* const* rows,
                     uint32_t n, Vector& out);

}  // namespace floe::vectorized
