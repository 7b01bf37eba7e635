// Layout and arithmetic of aggregation group rows (DESIGN.md "Aggregation"): the group keys,
// then the states of the aggregate functions. A zeroed row is the empty state, so a group
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
#pragma once

#include <optional>
#include <vector>

#include "codegen/translator.h"

namespace floe::codegen {

// The values an aggregate consumes per input row: its argument, and string_agg's delimiter
// and ORDER BY key (absent: no value).
struct AggregateInput {
  SqlValue argument;
  SqlValue delimiter;
  SqlValue order;
};

class AggregateStates {
 public:
  AggregateStates(PipelineEnv& env, const plan::AggregateOp& aggregate);

  const RowLayout& layout() const { return layout_; }
  const std::vector<SqlType>& key_types() const { return key_types_; }

  // Group key i of a row (field i).
  SqlValue load_key(llvm::Value* row, size_t i);
  void store_key(llvm::Value* row, size_t i, const SqlValue& value);

  // Adds one input value of aggregate i (ignored for count(*)). Both this and merge emit
  // into a function with a worker that returns false after a failure.
  void update(llvm::Value* row, size_t i, const AggregateInput& input);
  // Folds aggregate i of `from` into `into` (the generated merge function).
  void merge(llvm::Value* into, llvm::Value* from, size_t i);
  // The SQL result of aggregate i (fails the query for a numeric sum beyond 38 digits).
  SqlValue finalize(llvm::Value* row, size_t i);

 private:
  struct State {
    plan::AggregateFunction function = plan::AggregateFunction::kCountStar;
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

  // Adds `value` (null = skip) to a sum state; overflow fails the query.
  void add_to_sum(llvm::Value* row, const State& state, const SqlValue& value);
  // Replaces the stored extreme when `value` (null = skip) is smaller (min) / larger (max).
  void take_extreme(llvm::Value* row, const State& state, const SqlValue& value);
  void add_to_count(llvm::Value* row, size_t field, llvm::Value* amount);
  // Variance states (see above): one input value, and the merge of another state.
  void add_to_variance(llvm::Value* row, const State& state, llvm::Value* value);
  void merge_variance(llvm::Value* into, llvm::Value* from, const State& state);
  SqlValue finalize_variance(llvm::Value* row, const State& state);
  // Collected aggregates: the group's CollectedList (value_field, extra_field), one input
  // value, and the final value.
  llvm::Value* list_address(llvm::Value* row, const State& state);
  void collect(llvm::Value* row, const State& state, const AggregateInput& input);
  SqlValue finalize_collected(llvm::Value* row, const State& state);
  // A 16-byte stack slot holding `value` (a physical value of `type`).
  llvm::Value* slot_of(llvm::Value* value, const SqlType& type);
  // Runs `emit` only when `null` (may be nullptr) is false.
  void unless_null(llvm::Value* null, const std::function<void()>& emit);
  llvm::Value* extend(llvm::Value* value, const SqlType& from, const SqlType& to);

  PipelineEnv& env_;
  std::vector<SqlType> key_types_;
  std::vector<State> states_;
  RowLayout layout_;
};

}  // namespace floe::codegen
