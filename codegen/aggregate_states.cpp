#include "codegen/aggregate_states.h"

#include "codegen/expression_decimal.h"
#include "codegen/expression_ir.h"
#include "runtime/runtime_abi.h"
#include "storage/error.h"
#include "storage/numeric_casts.h"

namespace floe::codegen {

using plan::AggregateFunction;
using plan::numeric_scale;
using plan::variance_kind;

AggregateStates::AggregateStates(PipelineEnv& env, plan::AggregateLayout layout)
    : env_(env),
      key_types_(std::move(layout.key_types)),
      states_(std::move(layout.states)),
      layout_(std::move(layout.layout)) {}

AggregateStates::AggregateStates(PipelineEnv& env, const plan::AggregateOp& aggregate)
    : AggregateStates(env, plan::describe_aggregate(aggregate, env.plan.registry)) {}

SqlValue AggregateStates::load_key(llvm::Value* row, size_t i) {
  return load_field(env_.codegen, row, layout_, i);
}

void AggregateStates::store_key(llvm::Value* row, size_t i, const SqlValue& value) {
  store_field(env_.codegen, row, layout_, i, value);
}

void AggregateStates::update(llvm::Value* row, size_t i, const AggregateInput& input) {
  const State& state = states_[i];
  const SqlValue& argument = input.argument;
  auto& b = env_.builder();
  switch (state.function) {
    case AggregateFunction::kCountStar:
      add_to_count(row, state.value_field, b.getInt64(1));
      break;
    case AggregateFunction::kCount: {
      llvm::Value* one = b.getInt64(1);
      if (argument.null) one = b.CreateZExt(b.CreateNot(argument.null), b.getInt64Ty());
      add_to_count(row, state.value_field, one);
      break;
    }
    case AggregateFunction::kSum:
      add_to_sum(row, state, argument);
      break;
    case AggregateFunction::kAvg:
      unless_null(argument.null, [&] {
        add_to_sum(row, state, {argument.value, nullptr});
        add_to_count(row, state.extra_field, b.getInt64(1));
      });
      break;
    case AggregateFunction::kMin:
    case AggregateFunction::kMax:
    case AggregateFunction::kBoolAnd:
    case AggregateFunction::kBoolOr:
      take_extreme(row, state, argument);
      break;
    case AggregateFunction::kVarSamp:
    case AggregateFunction::kVarPop:
    case AggregateFunction::kStddevSamp:
    case AggregateFunction::kStddevPop:
      unless_null(argument.null, [&] { add_to_variance(row, state, argument.value); });
      break;
    case AggregateFunction::kStringAgg:
    case AggregateFunction::kPercentileCont:
    case AggregateFunction::kPercentileDisc:
    case AggregateFunction::kMode:
      unless_null(argument.null, [&] { collect(row, state, input); });
      break;
  }
}

void AggregateStates::merge(llvm::Value* into, llvm::Value* from, size_t i) {
  const State& state = states_[i];
  auto& codegen = env_.codegen;
  auto load = [&](size_t field) { return load_field(codegen, from, layout_, field).value; };
  switch (state.function) {
    case AggregateFunction::kCountStar:
    case AggregateFunction::kCount:
      add_to_count(into, state.value_field, load(state.value_field));
      break;
    case AggregateFunction::kAvg:
      add_to_sum(into, state, {load(state.value_field), nullptr});
      add_to_count(into, state.extra_field, load(state.extra_field));
      break;
    case AggregateFunction::kSum:
      add_to_sum(into, state,
                 {load(state.value_field), env_.builder().CreateNot(load(state.extra_field))});
      break;
    case AggregateFunction::kMin:
    case AggregateFunction::kMax:
    case AggregateFunction::kBoolAnd:
    case AggregateFunction::kBoolOr:
      take_extreme(into, state,
                   {load(state.value_field), env_.builder().CreateNot(load(state.extra_field))});
      break;
    case AggregateFunction::kVarSamp:
    case AggregateFunction::kVarPop:
    case AggregateFunction::kStddevSamp:
    case AggregateFunction::kStddevPop:
      merge_variance(into, from, state);
      break;
    case AggregateFunction::kStringAgg:
    case AggregateFunction::kPercentileCont:
    case AggregateFunction::kPercentileDisc:
    case AggregateFunction::kMode:
      call_runtime(codegen, "floe_rt_collect_merge",
                   {list_address(into, state), list_address(from, state)});
      break;
  }
}

SqlValue AggregateStates::finalize(llvm::Value* row, size_t i) {
  const State& state = states_[i];
  auto& b = env_.builder();
  auto load = [&](size_t field) { return load_field(env_.codegen, row, layout_, field).value; };
  switch (state.function) {
    case AggregateFunction::kCountStar:
    case AggregateFunction::kCount:
      return {load(state.value_field), nullptr};
    case AggregateFunction::kSum: {
      SqlValue sum{load(state.value_field), b.CreateNot(load(state.extra_field))};
      if (state.value_type.id == TypeId::kDecimal)
        check_precision(env_.codegen, sum.value, state.value_type.precision, sum.null);
      return sum;
    }
    case AggregateFunction::kMin:
    case AggregateFunction::kMax:
    case AggregateFunction::kBoolAnd:
    case AggregateFunction::kBoolOr:
      return {load(state.value_field), b.CreateNot(load(state.extra_field))};
    case AggregateFunction::kVarSamp:
    case AggregateFunction::kVarPop:
    case AggregateFunction::kStddevSamp:
    case AggregateFunction::kStddevPop:
      return finalize_variance(row, state);
    case AggregateFunction::kStringAgg:
    case AggregateFunction::kPercentileCont:
    case AggregateFunction::kPercentileDisc:
    case AggregateFunction::kMode:
      return finalize_collected(row, state);
    case AggregateFunction::kAvg: {
      llvm::Value* sum = load(state.value_field);
      llvm::Value* count = load(state.extra_field);
      // With no input the count is 0: the division yields NaN, but the value is NULL.
      llvm::Value* average = sum->getType()->isDoubleTy()
                                 ? b.CreateFDiv(sum, b.CreateSIToFP(count, b.getDoubleTy()), "avg")
                                 : call_runtime(env_.codegen, "floe_rt_average_exact",
                                                {sum, count, b.getInt32(state.value_type.scale)});
      return {average, b.CreateICmpEQ(count, b.getInt64(0))};
    }
  }
  throw Error("internal error: unknown aggregate function");
}

void AggregateStates::add_to_sum(llvm::Value* row, const State& state, const SqlValue& value) {
  unless_null(value.null, [&] {
    auto& codegen = env_.codegen;
    auto& b = env_.builder();
    llvm::Value* sum = load_field(codegen, row, layout_, state.value_field).value;
    llvm::Value* addend = extend(value.value, state.argument_type, state.value_type);
    llvm::Value* result;
    if (sum->getType()->isDoubleTy()) {
      result = b.CreateFAdd(sum, addend);
    } else {
      // Exact running sums only have to stay within their machine width (the sum's precision
      // is checked when it is finalized, so a sum may pass beyond 38 digits and come back).
      result = checked_integer_op(codegen, llvm::Intrinsic::sadd_with_overflow, sum, addend,
                                  nullptr, plan::sum_overflow_message(state));
    }
    store_field(codegen, row, layout_, state.value_field, {result, nullptr});
    if (state.function == AggregateFunction::kSum) {
      store_field(codegen, row, layout_, state.extra_field, {b.getTrue(), nullptr});
    }
  });
}

void AggregateStates::take_extreme(llvm::Value* row, const State& state, const SqlValue& value) {
  unless_null(value.null, [&] {
    auto& codegen = env_.codegen;
    auto& b = env_.builder();
    llvm::Value* has = load_field(codegen, row, layout_, state.extra_field).value;
    llvm::Value* current = load_field(codegen, row, layout_, state.value_field).value;
    // The stored value is zeroed while `has` is false, so comparing it is safe.
    llvm::Value* order = env_.expressions.compare(value.value, current, state.value_type);
    bool smaller =
        state.function == AggregateFunction::kMin || state.function == AggregateFunction::kBoolAnd;
    llvm::Value* better =
        smaller ? b.CreateICmpSLT(order, b.getInt32(0)) : b.CreateICmpSGT(order, b.getInt32(0));
    llvm::Value* take = b.CreateOr(b.CreateNot(has), better);
    store_field(codegen, row, layout_, state.value_field,
                {b.CreateSelect(take, value.value, current), nullptr});
    store_field(codegen, row, layout_, state.extra_field, {b.getTrue(), nullptr});
  });
}

void AggregateStates::add_to_count(llvm::Value* row, size_t field, llvm::Value* amount) {
  auto& codegen = env_.codegen;
  llvm::Value* count = load_field(codegen, row, layout_, field).value;
  store_field(codegen, row, layout_, field, {env_.builder().CreateAdd(count, amount), nullptr});
}

void AggregateStates::add_to_variance(llvm::Value* row, const State& state, llvm::Value* value) {
  // runtime/aggregate_math.h's accumulators, on the row's fields.
  auto& codegen = env_.codegen;
  llvm::Value* count = field_address(row, state.value_field);
  llvm::Value* sum = field_address(row, state.extra_field);
  llvm::Value* squares = field_address(row, state.square_field);
  if (state.value_type.id == TypeId::kDouble) {
    call_runtime(codegen, "floe_rt_variance_add_double", {count, sum, squares, value});
    return;
  }
  llvm::Value* x = env_.builder().CreateSExt(value, env_.builder().getInt128Ty());
  codegen.return_if_false(call_runtime(codegen, "floe_rt_variance_add_exact",
                                       {codegen.worker(), count, sum, squares, x}));
}

void AggregateStates::merge_variance(llvm::Value* into, llvm::Value* from, const State& state) {
  auto& codegen = env_.codegen;
  std::vector<llvm::Value*> fields;
  for (llvm::Value* row : {into, from}) {
    for (size_t field : {state.value_field, state.extra_field, state.square_field})
      fields.push_back(field_address(row, field));
  }
  if (state.value_type.id == TypeId::kDouble) {
    call_runtime(codegen, "floe_rt_variance_combine_double", fields);
    return;
  }
  fields.insert(fields.begin(), codegen.worker());
  codegen.return_if_false(call_runtime(codegen, "floe_rt_variance_combine_exact", fields));
}

SqlValue AggregateStates::finalize_variance(llvm::Value* row, const State& state) {
  auto& codegen = env_.codegen;
  auto& b = env_.builder();
  auto load = [&](size_t field) { return load_field(codegen, row, layout_, field).value; };
  llvm::Value* count = load(state.value_field);
  // NULL without input, and for the sample forms with a single value (as in PostgreSQL).
  llvm::Value* null = b.CreateICmpSLE(
      count, b.getInt64((variance_kind(state.function) & kFloeVarianceSample) ? 1 : 0),
      "variance_null");
  llvm::Value* kind = b.getInt32(variance_kind(state.function));
  llvm::Value* value = state.value_type.id == TypeId::kDouble
                           ? call_runtime(codegen, "floe_rt_variance_double",
                                          {count, load(state.square_field), kind})
                           : call_runtime(codegen, "floe_rt_variance_exact",
                                          {count, load(state.extra_field), load(state.square_field),
                                           b.getInt32(numeric_scale(state.argument_type)), kind});
  return {value, null};
}

llvm::Value* AggregateStates::field_address(llvm::Value* row, size_t field) {
  auto& b = env_.builder();
  return b.CreateConstInBoundsGEP1_32(b.getInt8Ty(), row, layout_.offset(field));
}

llvm::Value* AggregateStates::list_address(llvm::Value* row, const State& state) {
  return field_address(row, state.value_field);
}

llvm::Value* AggregateStates::slot_of(llvm::Value* value, const SqlType& type) {
  auto& codegen = env_.codegen;
  llvm::Value* slot = entry_alloca(codegen, env_.builder().getInt128Ty());
  store_value(codegen, slot, value, type.physical());
  return slot;
}

void AggregateStates::collect(llvm::Value* row, const State& state, const AggregateInput& input) {
  auto& codegen = env_.codegen;
  auto& b = env_.builder();
  llvm::Value* none = llvm::ConstantPointerNull::get(b.getPtrTy());
  llvm::Value* key = none;
  llvm::Value* key_null = b.getFalse();
  llvm::Value* value = none;
  llvm::Value* delimiter = none;
  if (state.function == AggregateFunction::kStringAgg) {
    if (input.order.value) {
      key = slot_of(zero_if_null(codegen, input.order), state.key_type);
      if (input.order.null) key_null = input.order.null;
    }
    value = slot_of(input.argument.value, SqlType::text());
    // A NULL delimiter adds nothing: the empty string.
    delimiter = slot_of(zero_if_null(codegen, input.delimiter), SqlType::text());
  } else {
    key = slot_of(input.argument.value, state.argument_type);
  }
  call_runtime(codegen, "floe_rt_collect",
               {codegen.worker(), list_address(row, state), key, key_null, value, delimiter,
                b.getInt32(state.order)});
}

SqlValue AggregateStates::finalize_collected(llvm::Value* row, const State& state) {
  auto& codegen = env_.codegen;
  auto& b = env_.builder();
  llvm::Value* list = list_address(row, state);
  llvm::Value* head = load_field(codegen, row, layout_, state.value_field).value;
  // No (non-NULL) input, or a NULL fraction: NULL.
  llvm::Value* null = b.CreateICmpEQ(head, b.getInt64(0), "collected_none");
  bool percentile = state.function == AggregateFunction::kPercentileCont ||
                    state.function == AggregateFunction::kPercentileDisc;
  if (percentile && !state.fraction) null = b.getTrue();
  llvm::Value* order = b.getInt32(state.order);
  llvm::Value* fraction = llvm::ConstantFP::get(b.getDoubleTy(), state.fraction.value_or(0.0));
  return compute_unless_null(codegen, null, [&]() -> llvm::Value* {
    switch (state.function) {
      case AggregateFunction::kStringAgg:
        return call_runtime(codegen, "floe_rt_string_agg", {codegen.worker(), list, order});
      case AggregateFunction::kPercentileCont: {
        llvm::Value* out = entry_alloca(codegen, b.getDoubleTy());
        codegen.return_if_false(call_runtime(codegen, "floe_rt_percentile_cont",
                                             {codegen.worker(), list, fraction, order, out}));
        return b.CreateLoad(b.getDoubleTy(), out);
      }
      default: {
        llvm::Value* out = entry_alloca(codegen, b.getInt128Ty());
        if (state.function == AggregateFunction::kMode) {
          call_runtime(codegen, "floe_rt_mode", {list, order, out});
        } else {
          codegen.return_if_false(call_runtime(codegen, "floe_rt_percentile_disc",
                                               {codegen.worker(), list, fraction, order, out}));
        }
        return load_value(codegen, out, state.value_type.physical());
      }
    }
  });
}

void AggregateStates::unless_null(llvm::Value* null, const std::function<void()>& emit) {
  if (!null) {
    emit();
    return;
  }
  auto& b = env_.builder();
  auto* function = env_.codegen.function();
  auto* present = llvm::BasicBlock::Create(b.getContext(), "agg_input", function);
  auto* done = llvm::BasicBlock::Create(b.getContext(), "agg_done", function);
  b.CreateCondBr(null, done, present);
  b.SetInsertPoint(present);
  emit();
  b.CreateBr(done);
  b.SetInsertPoint(done);
}

llvm::Value* AggregateStates::extend(llvm::Value* value, const SqlType& from, const SqlType& to) {
  auto* target = env_.codegen.register_type(to);
  if (value->getType() == target) return value;
  if (target->isDoubleTy()) {
    throw Error("internal error: aggregate of " + from.to_string() + " into double");
  }
  return env_.builder().CreateSExt(value, target);
}

}  // namespace floe::codegen
