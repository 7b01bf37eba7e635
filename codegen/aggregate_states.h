// Arithmetic of aggregation group rows: updates, merges and finalization of the aggregate
// states laid out by engine/plan/aggregate_layout.h (which describes each state).
#pragma once

#include <optional>
#include <vector>

#include "codegen/translator.h"
#include "engine/plan/aggregate_layout.h"

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
  AggregateStates(PipelineEnv& env, plan::AggregateLayout layout);
  // The layout of `aggregate`'s group row, described here (window aggregates' states).
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
  using State = plan::AggregateState;

  // Adds `value` (null = skip) to a sum state; overflow fails the query.
  void add_to_sum(llvm::Value* row, const State& state, const SqlValue& value);
  // Replaces the stored extreme when `value` (null = skip) is smaller (min) / larger (max).
  void take_extreme(llvm::Value* row, const State& state, const SqlValue& value);
  void add_to_count(llvm::Value* row, size_t field, llvm::Value* amount);
  // Variance states (see above): one input value, and the merge of another state.
  void add_to_variance(llvm::Value* row, const State& state, llvm::Value* value);
  void merge_variance(llvm::Value* into, llvm::Value* from, const State& state);
  SqlValue finalize_variance(llvm::Value* row, const State& state);
  // The address of a field of `row`.
  llvm::Value* field_address(llvm::Value* row, size_t field);
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
