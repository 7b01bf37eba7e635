#include "engine/plan/aggregate_layout.h"

#include "runtime/runtime_abi.h"
#include "storage/decimal.h"
#include "storage/error.h"

namespace floe::plan {
namespace {

bool is_variance(AggregateFunction function) {
  return function == AggregateFunction::kVarSamp || function == AggregateFunction::kVarPop ||
         function == AggregateFunction::kStddevSamp || function == AggregateFunction::kStddevPop;
}

}  // namespace

int32_t variance_kind(AggregateFunction function) {
  bool sample =
      function == AggregateFunction::kVarSamp || function == AggregateFunction::kStddevSamp;
  bool root =
      function == AggregateFunction::kStddevSamp || function == AggregateFunction::kStddevPop;
  return (sample ? kFloeVarianceSample : 0) | (root ? kFloeVarianceRoot : 0);
}

uint8_t numeric_scale(const SqlType& type) {
  return type.id == TypeId::kDecimal ? type.scale : 0;
}

AggregateLayout describe_aggregate(const AggregateOp& aggregate, const ColumnRegistry& registry) {
  AggregateLayout described;
  std::vector<RowField> fields;
  for (const auto& group : aggregate.groups) {
    described.key_types.push_back(group.expr->type);
    fields.push_back({group.expr->type, group.expr->nullable || registry[group.id].nullable});
  }
  auto add_field = [&](const SqlType& type) {
    fields.push_back({type, false});
    return fields.size() - 1;
  };
  for (const auto& function : aggregate.aggregates) {
    if (function.distinct && function.function != AggregateFunction::kStringAgg)
      throw NotSupported("DISTINCT aggregate in the code generator");
    AggregateState state;
    state.function = function.function;
    if (function.argument) state.argument_type = function.argument->type;
    bool arithmetic = function.function == AggregateFunction::kSum ||
                      function.function == AggregateFunction::kAvg ||
                      is_variance(function.function);
    if (arithmetic && !state.argument_type.is_numeric()) {
      throw NotSupported("sum/avg/variance of " + state.argument_type.to_string());
    }
    const SqlType& result = registry[function.id].type;
    switch (function.function) {
      case AggregateFunction::kCountStar:
      case AggregateFunction::kCount:
        state.value_type = SqlType::big_int();
        state.value_field = add_field(state.value_type);
        break;
      case AggregateFunction::kSum:
        if (result.id == TypeId::kDouble || state.argument_type.id == TypeId::kDouble
                ? result.id != state.argument_type.id
                : numeric_scale(result) != numeric_scale(state.argument_type)) {
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
      case AggregateFunction::kBoolAnd:
      case AggregateFunction::kBoolOr:
        state.value_type = state.argument_type;
        state.value_field = add_field(state.argument_type);
        state.extra_field = add_field(SqlType::boolean());
        break;
      case AggregateFunction::kVarSamp:
      case AggregateFunction::kVarPop:
      case AggregateFunction::kStddevSamp:
      case AggregateFunction::kStddevPop:
        if (result.id != TypeId::kDouble) throw NotSupported("variance as " + result.to_string());
        state.value_type = state.argument_type.id == TypeId::kDouble
                               ? SqlType::double_type()
                               : SqlType::decimal(kMaxDecimalPrecision, 0);
        state.value_field = add_field(SqlType::big_int());
        state.extra_field = add_field(state.value_type);
        state.square_field = add_field(state.value_type);
        break;
      case AggregateFunction::kStringAgg:
      case AggregateFunction::kPercentileCont:
      case AggregateFunction::kPercentileDisc:
      case AggregateFunction::kMode: {
        // CollectedList {head, tail}: two adjacent 8-byte fields.
        state.value_type = result;
        state.value_field = add_field(SqlType::big_int());
        state.extra_field = add_field(SqlType::big_int());
        const Expr* key = function.function == AggregateFunction::kStringAgg
                              ? function.order.get()
                              : function.argument.get();
        if (key) {
          state.key_type = key->type;
          state.order = static_cast<int32_t>(key->type.physical()) | kFloeOrderKey;
          if (function.descending) state.order |= kFloeOrderDescending;
          if (function.nulls_first) state.order |= kFloeOrderNullsFirst;
          if (function.distinct) state.order |= kFloeOrderDistinct;
        }
        if (function.parameter && function.function != AggregateFunction::kStringAgg &&
            !function.parameter->constant.is_null())
          state.fraction = function.parameter->constant.as_double();
        break;
      }
    }
    described.states.push_back(state);
  }
  described.layout = RowLayout(std::move(fields));
  return described;
}

const char* sum_overflow_message(const AggregateState& state) {
  // Integer sums are bigints; wider ones are numerics.
  return state.value_type.id == TypeId::kDecimal ? kNumericOverflow : "bigint out of range";
}

vectorized::StateKernel state_kernel(const AggregateState& state, const RowLayout& layout) {
  using vectorized::StateKind;
  vectorized::StateKernel kernel;
  kernel.argument = state.argument_type.physical();
  kernel.result = state.value_type.physical();
  kernel.value = row_slot(layout, state.value_field);
  kernel.extra = row_slot(layout, state.extra_field);
  kernel.squares = row_slot(layout, state.square_field);
  switch (state.function) {
    case AggregateFunction::kCountStar:
      kernel.kind = StateKind::kCountStar;
      break;
    case AggregateFunction::kCount:
      kernel.kind = StateKind::kCount;
      break;
    case AggregateFunction::kSum:
      kernel.kind = StateKind::kSum;
      kernel.overflow = sum_overflow_message(state);
      if (state.value_type.id == TypeId::kDecimal) kernel.precision = state.value_type.precision;
      break;
    case AggregateFunction::kAvg:
      kernel.kind = StateKind::kAvg;
      kernel.result = PhysicalType::kDouble;
      kernel.overflow = sum_overflow_message(state);
      kernel.scale = numeric_scale(state.value_type);
      break;
    case AggregateFunction::kMin:
    case AggregateFunction::kBoolAnd:
      kernel.kind = StateKind::kMin;
      break;
    case AggregateFunction::kMax:
    case AggregateFunction::kBoolOr:
      kernel.kind = StateKind::kMax;
      break;
    case AggregateFunction::kVarSamp:
    case AggregateFunction::kVarPop:
    case AggregateFunction::kStddevSamp:
    case AggregateFunction::kStddevPop:
      kernel.kind = StateKind::kVariance;
      kernel.result = PhysicalType::kDouble;
      kernel.scale = numeric_scale(state.argument_type);
      kernel.variance_kind = variance_kind(state.function);
      break;
    case AggregateFunction::kStringAgg:
      kernel.kind = StateKind::kStringAgg;
      break;
    case AggregateFunction::kPercentileCont:
      kernel.kind = StateKind::kPercentileCont;
      break;
    case AggregateFunction::kPercentileDisc:
      kernel.kind = StateKind::kPercentileDisc;
      break;
    case AggregateFunction::kMode:
      kernel.kind = StateKind::kMode;
      break;
  }
  kernel.order = state.order;
  kernel.fraction = state.fraction;
  return kernel;
}

}  // namespace floe::plan
