#include "codegen/expression_temporal.h"

#include "codegen/expression_cast.h"
#include "codegen/expression_ir.h"
#include "storage/date_time.h"
#include "storage/error.h"

namespace floe::codegen {
namespace {

constexpr const char* kIntervalOverflow = "interval out of range";

bool is_interval(const SqlType& type) {
  return type.id == TypeId::kInterval;
}
bool is_date(const SqlType& type) {
  return type.id == TypeId::kDate;
}

llvm::Intrinsic::ID overflow_intrinsic(bool add) {
  return add ? llvm::Intrinsic::sadd_with_overflow : llvm::Intrinsic::ssub_with_overflow;
}

// Applies `op` to each field of two intervals (or of 0 and one interval).
llvm::Value* interval_fields(CodegenContext& context, llvm::Value* a, llvm::Value* b,
                             llvm::Intrinsic::ID op, llvm::Value* null) {
  auto& builder = context.builder();
  llvm::Value* result = llvm::UndefValue::get(b->getType());
  for (unsigned field = 0; field < 3; ++field) {
    llvm::Value* b_field = builder.CreateExtractValue(b, field);
    llvm::Value* a_field =
        a ? builder.CreateExtractValue(a, field) : llvm::Constant::getNullValue(b_field->getType());
    llvm::Value* value = checked_integer_op(context, op, a_field, b_field, null, kIntervalOverflow);
    result = builder.CreateInsertValue(result, value, field);
  }
  return result;
}

// timestamp + interval through the runtime (month arithmetic clamps the day of month).
SqlValue add_interval(CodegenContext& context, SqlValue timestamp, SqlValue interval) {
  return compute_unless_null(context, or_nulls(context, {timestamp.null, interval.null}), [&] {
    auto& builder = context.builder();
    return call_runtime(context, "floe_rt_timestamp_add_interval",
                        {timestamp.value, builder.CreateExtractValue(interval.value, 0),
                         builder.CreateExtractValue(interval.value, 1),
                         builder.CreateExtractValue(interval.value, 2)});
  });
}

// date or timestamp +/- interval -> timestamp.
SqlValue shift_by_interval(CodegenContext& context, SqlValue point, const SqlType& point_type,
                           SqlValue interval, bool add) {
  SqlValue timestamp = cast_value(context, point, point_type, SqlType::timestamp());
  return add_interval(context, timestamp, add ? interval : negate_interval(context, interval));
}

// date +/- days -> date.
SqlValue shift_date(CodegenContext& context, SqlValue date, SqlValue days, const SqlType& days_type,
                    bool add) {
  SqlValue day_count = cast_value(context, days, days_type, SqlType::integer());
  llvm::Value* null = or_nulls(context, {date.null, day_count.null});
  return {checked_integer_op(context, overflow_intrinsic(add), date.value, day_count.value, null,
                             "date out of range"),
          null};
}

// timestamp - timestamp: whole days go to the day field, as PostgreSQL's justify_hours does.
SqlValue timestamp_difference(CodegenContext& context, SqlValue a, SqlValue b) {
  auto& builder = context.builder();
  llvm::Value* null = or_nulls(context, {a.null, b.null});
  llvm::Value* micros = checked_integer_op(context, llvm::Intrinsic::ssub_with_overflow, a.value,
                                           b.value, null, kIntervalOverflow);
  llvm::Value* day = builder.getInt64(kMicrosPerDay);
  llvm::Value* result = llvm::UndefValue::get(context.register_type(PhysicalType::kInterval));
  result = builder.CreateInsertValue(result, builder.getInt32(0), 0);
  result = builder.CreateInsertValue(
      result, builder.CreateTrunc(builder.CreateSDiv(micros, day), builder.getInt32Ty()), 1);
  result = builder.CreateInsertValue(result, builder.CreateSRem(micros, day), 2);
  return {result, null};
}

// interval * double or interval / double through the runtime (storage/interval.h).
SqlValue scale_interval(CodegenContext& context, SqlValue interval, SqlValue factor, bool divide) {
  return compute_unless_null(context, or_nulls(context, {interval.null, factor.null}), [&] {
    auto& builder = context.builder();
    llvm::Type* type = context.register_type(PhysicalType::kInterval);
    llvm::Value* out = entry_alloca(context, type);
    context.return_if_false(call_runtime(
        context, divide ? "floe_rt_interval_divide" : "floe_rt_interval_multiply",
        {context.worker(), builder.CreateExtractValue(interval.value, 0),
         builder.CreateExtractValue(interval.value, 1),
         builder.CreateExtractValue(interval.value, 2), factor.value, out}));
    return builder.CreateLoad(type, out);
  });
}

}  // namespace

bool is_temporal_arithmetic(const plan::Expr& expr) {
  auto temporal = [](const SqlType& type) { return type.is_temporal() || is_interval(type); };
  return temporal(expr.children[0]->type) || temporal(expr.children[1]->type);
}

SqlValue negate_interval(CodegenContext& context, SqlValue interval) {
  return {interval_fields(context, nullptr, interval.value, llvm::Intrinsic::ssub_with_overflow,
                          interval.null),
          interval.null};
}

SqlValue compile_temporal_arithmetic(CodegenContext& context, const plan::Expr& expr, SqlValue a,
                                     SqlValue b) {
  const SqlType& left = expr.children[0]->type;
  const SqlType& right = expr.children[1]->type;
  bool add = expr.arithmetic_op == plan::ArithmeticOp::kAdd;
  bool subtract = expr.arithmetic_op == plan::ArithmeticOp::kSubtract;
  SqlValue result;
  SqlType result_type;
  if ((add || subtract) && is_date(left) && right.is_integer()) {
    result = shift_date(context, a, b, right, add);
    result_type = SqlType::date();
  } else if (add && left.is_integer() && is_date(right)) {
    result = shift_date(context, b, a, left, true);
    result_type = SqlType::date();
  } else if (subtract && is_date(left) && is_date(right)) {
    llvm::Value* null = or_nulls(context, {a.null, b.null});
    result = {checked_integer_op(context, llvm::Intrinsic::ssub_with_overflow, a.value, b.value,
                                 null, "integer out of range"),
              null};
    result_type = SqlType::integer();
  } else if ((add || subtract) && left.is_temporal() && is_interval(right)) {
    result = shift_by_interval(context, a, left, b, add);
    result_type = SqlType::timestamp();
  } else if (add && is_interval(left) && right.is_temporal()) {
    result = shift_by_interval(context, b, right, a, true);
    result_type = SqlType::timestamp();
  } else if ((add || subtract) && is_interval(left) && is_interval(right)) {
    llvm::Value* null = or_nulls(context, {a.null, b.null});
    result = {interval_fields(context, a.value, b.value, overflow_intrinsic(add), null), null};
    result_type = SqlType::interval();
  } else if (subtract && left.id == TypeId::kTimestamp && right.id == TypeId::kTimestamp) {
    result = timestamp_difference(context, a, b);
    result_type = SqlType::interval();
  } else if (is_interval(left) && right.id == TypeId::kDouble && !add && !subtract) {
    result = scale_interval(context, a, b, expr.arithmetic_op == plan::ArithmeticOp::kDivide);
    result_type = SqlType::interval();
  } else {
    throw NotSupported("operator for " + left.to_string() + " and " + right.to_string(),
                       expr.position);
  }
  return cast_value(context, result, result_type, expr.type);
}

SqlValue compile_extract(CodegenContext& context, DatePart part, SqlValue value,
                         const SqlType& type, const SqlType& result_type) {
  auto& builder = context.builder();
  llvm::Value* code = builder.getInt32(static_cast<int32_t>(part));
  return compute_unless_null(context, value.null, [&] {
    llvm::Value* scaled;
    if (is_interval(type)) {
      scaled = call_runtime(context, "floe_rt_extract_interval",
                            {code, builder.CreateExtractValue(value.value, 0),
                             builder.CreateExtractValue(value.value, 1),
                             builder.CreateExtractValue(value.value, 2)});
    } else if (type.is_temporal()) {
      scaled = call_runtime(
          context, is_date(type) ? "floe_rt_extract_date" : "floe_rt_extract_timestamp",
          {code, value.value});
    } else {
      throw NotSupported("EXTRACT from " + type.to_string());
    }
    return builder.CreateSExtOrTrunc(scaled, context.register_type(result_type));
  });
}

}  // namespace floe::codegen
