#include "codegen/aggregate_states.h"

#include "codegen/expression_cast.h"
#include "codegen/expression_decimal.h"
#include "codegen/expression_ir.h"
#include "storage/error.h"

namespace floe::codegen {
namespace {

using plan::AggregateFunction;
using plan::avg_sum_type;

// Scale of a numeric type as a decimal (integers have scale 0).
uint8_t scale_of(const SqlType& type) {
  return type.id == TypeId::kDecimal ? type.scale : 0;
}

}  // namespace

AggregateStates::AggregateStates(PipelineEnv& env, const plan::AggregateOp& aggregate) : env_(env) {
  std::vector<RowField> fields;
  for (const auto& group : aggregate.groups) {
    key_types_.push_back(group.expr->type);
    fields.push_back({group.expr->type, group.expr->nullable || env.column(group.id).nullable});
  }
  auto add_field = [&](const SqlType& type) {
    fields.push_back({type, false});
    return fields.size() - 1;
  };
  for (const auto& function : aggregate.aggregates) {
    if (function.distinct) throw NotSupported("DISTINCT aggregate in the code generator");
    State state{function.function, {}, {}, 0, 0};
    if (function.argument) state.argument_type = function.argument->type;
    bool arithmetic = function.function == AggregateFunction::kSum ||
                      function.function == AggregateFunction::kAvg;
    if (arithmetic && !state.argument_type.is_numeric()) {
      throw NotSupported("sum/avg of " + state.argument_type.to_string());
    }
    const SqlType& result = env.column(function.id).type;
    switch (function.function) {
      case AggregateFunction::kCountStar:
      case AggregateFunction::kCount:
        state.value_type = SqlType::big_int();
        state.value_field = add_field(state.value_type);
        break;
      case AggregateFunction::kSum:
        if (result.id == TypeId::kDouble || state.argument_type.id == TypeId::kDouble
                ? result.id != state.argument_type.id
                : scale_of(result) != scale_of(state.argument_type)) {
          throw NotSupported("sum of " + state.argument_type.to_string() + " as " +
                             result.to_string());
        }
        state.value_type = result;
        state.value_field = add_field(result);
        state.extra_field = add_field(SqlType::boolean());
        break;
      case AggregateFunction::kAvg:
        if (result.id != TypeId::kDouble) throw NotSupported("avg as " + result.to_string());
        state.value_type = avg_sum_type(state.argument_type);
        state.value_field = add_field(state.value_type);
        state.extra_field = add_field(SqlType::big_int());
        break;
      case AggregateFunction::kMin:
      case AggregateFunction::kMax:
        state.value_type = state.argument_type;
        state.value_field = add_field(state.argument_type);
        state.extra_field = add_field(SqlType::boolean());
        break;
    }
    states_.push_back(state);
  }
  layout_ = RowLayout(std::move(fields));
}

SqlValue AggregateStates::load_key(llvm::Value* row, size_t i) {
  return load_field(env_.codegen, row, layout_, i);
}

void AggregateStates::store_key(llvm::Value* row, size_t i, const SqlValue& value) {
  store_field(env_.codegen, row, layout_, i, value);
}

void AggregateStates::update(llvm::Value* row, size_t i, const SqlValue& argument) {
  const State& state = states_[i];
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
      take_extreme(row, state, argument);
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
      take_extreme(into, state,
                   {load(state.value_field), env_.builder().CreateNot(load(state.extra_field))});
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
      return {load(state.value_field), b.CreateNot(load(state.extra_field))};
    case AggregateFunction::kAvg: {
      llvm::Value* sum = load(state.value_field);
      llvm::Value* count = load(state.extra_field);
      if (!sum->getType()->isDoubleTy()) {
        sum = b.CreateSIToFP(sum, b.getDoubleTy());
        if (state.value_type.scale > 0) {
          sum = b.CreateFDiv(
              sum, llvm::ConstantFP::get(
                       b.getDoubleTy(), static_cast<double>(power_of_ten(state.value_type.scale))));
        }
      }
      // With no input the count is 0: the division yields NaN, but the value is NULL.
      auto* average = b.CreateFDiv(sum, b.CreateSIToFP(count, b.getDoubleTy()), "avg");
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
      std::string overflow = state.value_type.id == TypeId::kDecimal
                                 ? kNumericOverflow
                                 : integer_overflow_message(state.value_type);
      result = checked_integer_op(codegen, llvm::Intrinsic::sadd_with_overflow, sum, addend,
                                  nullptr, overflow);
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
    llvm::Value* better = state.function == AggregateFunction::kMin
                              ? b.CreateICmpSLT(order, b.getInt32(0))
                              : b.CreateICmpSGT(order, b.getInt32(0));
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
