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
// Sums, minima and maxima of no (non-NULL) input are NULL.
#pragma once

#include <vector>

#include "codegen/translator.h"

namespace floe::codegen {

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
  void update(llvm::Value* row, size_t i, const SqlValue& argument);
  // Folds aggregate i of `from` into `into` (the generated merge function).
  void merge(llvm::Value* into, llvm::Value* from, size_t i);
  // The SQL result of aggregate i (fails the query for a numeric sum beyond 38 digits).
  SqlValue finalize(llvm::Value* row, size_t i);

 private:
  struct State {
    plan::AggregateFunction function;
    SqlType argument_type;
    SqlType value_type;  // of the sum / extreme value
    size_t value_field = 0;
    size_t extra_field = 0;  // "has input" flag, or the count of avg
  };

  // Adds `value` (null = skip) to a sum state; overflow fails the query.
  void add_to_sum(llvm::Value* row, const State& state, const SqlValue& value);
  // Replaces the stored extreme when `value` (null = skip) is smaller (min) / larger (max).
  void take_extreme(llvm::Value* row, const State& state, const SqlValue& value);
  void add_to_count(llvm::Value* row, size_t field, llvm::Value* amount);
  // Runs `emit` only when `null` (may be nullptr) is false.
  void unless_null(llvm::Value* null, const std::function<void()>& emit);
  llvm::Value* extend(llvm::Value* value, const SqlType& from, const SqlType& to);

  PipelineEnv& env_;
  std::vector<SqlType> key_types_;
  std::vector<State> states_;
  RowLayout layout_;
};

}  // namespace floe::codegen
