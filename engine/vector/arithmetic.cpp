// Arithmetic and negation over vectors, as codegen/expression_arithmetic.cpp and
// expression_temporal.cpp define them: operands cast to the result type, integer overflow
// and division checks per vector (runtime/vector/primitives.h), decimals through
// storage/decimal.h, dates, timestamps and intervals through storage's date/interval
// operations (the functions runtime_abi.h's date functions wrap).
#include <cstring>

#include "engine/vector/evaluation.h"
#include "runtime/runtime_abi.h"
#include "runtime/vector/primitives.h"
#include "storage/date_time.h"
#include "storage/decimal.h"
#include "storage/error.h"
#include "storage/interval.h"
#include "storage/numeric_casts.h"

namespace floe::vectorized {
namespace {

using plan::ArithmeticOp;

[[noreturn]] void unsupported(const plan::Expr& expr) {
  throw NotSupported("arithmetic " + expr.to_string() + " on " + expr.type.to_string(),
                     expr.position);
}

std::string overflow_message(const SqlType& type) {
  return type.is_integer() ? integer_out_of_range(type.id) : kNumericOverflow;
}

// Integers (and decimals' modulo): the machine operation with its overflow check.
void exact_arithmetic(ArithmeticOp op, const Vector& a, const Vector& b, Vector& out, Rows rows,
                      const std::string& overflow) {
  visit_integral(out.physical(), [&](auto t) {
    using T = decltype(t);
    const T* x = a.values<T>();
    const T* y = b.values<T>();
    T* result = out.mutable_values<T>();
    const uint64_t* valid = out.validity();
    bool failed = false;
    switch (op) {
      case ArithmeticOp::kAdd:
        failed = checked_arithmetic<AddOp>(x, y, result, rows.sel, rows.n, valid);
        break;
      case ArithmeticOp::kSubtract:
        failed = checked_arithmetic<SubtractOp>(x, y, result, rows.sel, rows.n, valid);
        break;
      case ArithmeticOp::kMultiply:
        failed = checked_arithmetic<MultiplyOp>(x, y, result, rows.sel, rows.n, valid);
        break;
      case ArithmeticOp::kDivide:
      case ArithmeticOp::kModulo:
        switch (
            divide_integers(x, y, result, rows.sel, rows.n, valid, op == ArithmeticOp::kModulo)) {
          case DivisionFailure::kNone:
            return;
          case DivisionFailure::kDivisionByZero:
            throw Error("division by zero");
          case DivisionFailure::kOverflow:
            throw Error(overflow);
        }
    }
    if (failed) throw Error(overflow);
  });
}

// Runs `op` (a storage/decimal.h operation) on int128 copies of the operands, then narrows
// to the result type.
template <typename F>
Vector wide_decimal(Evaluation& e, const plan::Expr& expr, Vector a, Vector b, Rows rows, F&& op) {
  auto wide = [&](Vector v) {
    unsigned scale = v.type().id == TypeId::kDecimal ? v.type().scale : 0;
    return e.cast(std::move(v), SqlType::decimal(kMaxDecimalPrecision, scale), rows);
  };
  Vector x = wide(std::move(a)), y = wide(std::move(b));
  Vector out = e.make_vector(SqlType::decimal(kMaxDecimalPrecision, expr.type.scale));
  intersect_into(out, x);
  intersect_into(out, y);
  if (apply_optional(x.values<int128_t>(), y.values<int128_t>(), out.mutable_values<int128_t>(),
                     rows.sel, rows.n, out.validity(), op))
    throw Error(kNumericOverflow);
  return e.cast(std::move(out), expr.type, rows);
}

Vector decimal_arithmetic(Evaluation& e, const plan::Expr& expr, Vector a, Vector b, Rows rows) {
  unsigned precision = expr.type.precision;
  if (expr.arithmetic_op == ArithmeticOp::kMultiply) {
    // Integer operands count as numeric(digits of the type, 0); the product's scale is the
    // sum of the scales.
    auto scale_of = [](const SqlType& type) {
      return type.id == TypeId::kDecimal ? type.scale : 0;
    };
    const SqlType& left = expr.children[0]->type;
    const SqlType& right = expr.children[1]->type;
    bool operands = (left.id == TypeId::kDecimal || left.is_integer()) &&
                    (right.id == TypeId::kDecimal || right.is_integer());
    if (!operands || scale_of(left) + scale_of(right) != expr.type.scale) unsupported(expr);
    return wide_decimal(e, expr, std::move(a), std::move(b), rows,
                        [&](int128_t x, int128_t y) { return multiply_decimals(x, y, precision); });
  }
  a = e.cast(std::move(a), expr.type, rows);
  b = e.cast(std::move(b), expr.type, rows);
  switch (expr.arithmetic_op) {
    case ArithmeticOp::kAdd:
      return wide_decimal(e, expr, std::move(a), std::move(b), rows,
                          [&](int128_t x, int128_t y) { return add_decimals(x, y, precision); });
    case ArithmeticOp::kSubtract:
      return wide_decimal(e, expr, std::move(a), std::move(b), rows, [&](int128_t x, int128_t y) {
        return subtract_decimals(x, y, precision);
      });
    case ArithmeticOp::kModulo: {  // |a % b| < |b|: always fits
      Vector out = e.make_vector(expr.type);
      intersect_into(out, a);
      intersect_into(out, b);
      exact_arithmetic(ArithmeticOp::kModulo, a, b, out, rows, kNumericOverflow);
      return out;
    }
    default:  // division is planned as double division
      unsupported(expr);
  }
}

Vector double_arithmetic(Evaluation& e, const plan::Expr& expr, Vector a, Vector b, Rows rows) {
  a = e.cast(std::move(a), expr.type, rows);
  b = e.cast(std::move(b), expr.type, rows);
  Vector out = e.make_vector(expr.type);
  intersect_into(out, a);
  intersect_into(out, b);
  const double* x = a.values<double>();
  const double* y = b.values<double>();
  double* result = out.mutable_values<double>();
  switch (expr.arithmetic_op) {
    case ArithmeticOp::kAdd:
      vectorized::double_arithmetic(x, y, result, rows.sel, rows.n,
                                    [](double l, double r) { return l + r; });
      break;
    case ArithmeticOp::kSubtract:
      vectorized::double_arithmetic(x, y, result, rows.sel, rows.n,
                                    [](double l, double r) { return l - r; });
      break;
    case ArithmeticOp::kMultiply:
      vectorized::double_arithmetic(x, y, result, rows.sel, rows.n,
                                    [](double l, double r) { return l * r; });
      break;
    case ArithmeticOp::kDivide:
      if (divide_doubles(x, y, result, rows.sel, rows.n, out.validity()))
        throw Error("division by zero");
      break;
    case ArithmeticOp::kModulo:
      unsupported(expr);
  }
  return out;
}

// Computes `f(row)` into `out` for the rows where all `operands` are present; f throws
// floe::Error, so the first failing row (in row order) raises its error.
template <typename T, typename F>
Vector per_row(Evaluation& e, const SqlType& type, std::initializer_list<const Vector*> operands,
               Rows rows, F&& f) {
  Vector out = e.make_vector(type);
  for (const Vector* operand : operands) intersect_into(out, *operand);
  Selection valid = e.present(out, rows);
  T* result = out.mutable_values<T>();
  for_each_row(valid.positions.data(), valid.count, [&](uint32_t p) { result[p] = f(p); });
  return out;
}

Interval negated(const Interval& interval) {
  return add_intervals({}, interval, true);
}

int64_t shift_timestamp(int64_t micros, const Interval& interval) {
  return floe_rt_timestamp_add_interval(micros, interval.months, interval.days, interval.micros);
}

// The date, timestamp and interval forms of engine/plan/expression.h.
Vector temporal_arithmetic(Evaluation& e, const plan::Expr& expr, Vector a, Vector b, Rows rows) {
  const SqlType& left = expr.children[0]->type;
  const SqlType& right = expr.children[1]->type;
  bool add = expr.arithmetic_op == ArithmeticOp::kAdd;
  bool subtract = expr.arithmetic_op == ArithmeticOp::kSubtract;
  auto is_interval = [](const SqlType& type) { return type.id == TypeId::kInterval; };
  auto is_date = [](const SqlType& type) { return type.id == TypeId::kDate; };
  auto shift_date = [&](Vector date, Vector days, bool forward) {
    Vector count = e.cast(std::move(days), SqlType::integer(), rows);
    const int32_t* d = date.values<int32_t>();
    const int32_t* n = count.values<int32_t>();
    return per_row<int32_t>(e, SqlType::date(), {&date, &count}, rows, [&](uint32_t p) {
      int32_t r;
      bool overflow =
          forward ? __builtin_add_overflow(d[p], n[p], &r) : __builtin_sub_overflow(d[p], n[p], &r);
      if (overflow) throw Error("date out of range");
      return r;
    });
  };
  auto shift_by_interval = [&](Vector point, Vector interval, bool forward) {
    Vector timestamp = e.cast(std::move(point), SqlType::timestamp(), rows);
    const int64_t* t = timestamp.values<int64_t>();
    const Interval* i = interval.values<Interval>();
    return per_row<int64_t>(
        e, SqlType::timestamp(), {&timestamp, &interval}, rows,
        [&](uint32_t p) { return shift_timestamp(t[p], forward ? i[p] : negated(i[p])); });
  };
  Vector result;
  if ((add || subtract) && is_date(left) && right.is_integer()) {
    result = shift_date(std::move(a), std::move(b), add);
  } else if (add && left.is_integer() && is_date(right)) {
    result = shift_date(std::move(b), std::move(a), true);
  } else if (subtract && is_date(left) && is_date(right)) {
    const int32_t* x = a.values<int32_t>();
    const int32_t* y = b.values<int32_t>();
    result = per_row<int32_t>(e, SqlType::integer(), {&a, &b}, rows, [&](uint32_t p) {
      int32_t r;
      if (__builtin_sub_overflow(x[p], y[p], &r)) throw Error("integer out of range");
      return r;
    });
  } else if ((add || subtract) && left.is_temporal() && is_interval(right)) {
    result = shift_by_interval(std::move(a), std::move(b), add);
  } else if (add && is_interval(left) && right.is_temporal()) {
    result = shift_by_interval(std::move(b), std::move(a), true);
  } else if ((add || subtract) && is_interval(left) && is_interval(right)) {
    const Interval* x = a.values<Interval>();
    const Interval* y = b.values<Interval>();
    result = per_row<Interval>(e, SqlType::interval(), {&a, &b}, rows,
                               [&](uint32_t p) { return add_intervals(x[p], y[p], subtract); });
  } else if (subtract && left.id == TypeId::kTimestamp && right.id == TypeId::kTimestamp) {
    const int64_t* x = a.values<int64_t>();
    const int64_t* y = b.values<int64_t>();
    result = per_row<Interval>(e, SqlType::interval(), {&a, &b}, rows,
                               [&](uint32_t p) { return subtract_timestamps(x[p], y[p]); });
  } else if (is_interval(left) && right.id == TypeId::kDouble && !add && !subtract) {
    bool divide = expr.arithmetic_op == ArithmeticOp::kDivide;
    const Interval* x = a.values<Interval>();
    const double* y = b.values<double>();
    result = per_row<Interval>(e, SqlType::interval(), {&a, &b}, rows, [&](uint32_t p) {
      return divide ? divide_interval(x[p], y[p]) : multiply_interval(x[p], y[p]);
    });
  } else {
    throw NotSupported("operator for " + left.to_string() + " and " + right.to_string(),
                       expr.position);
  }
  return e.cast(std::move(result), expr.type, rows);
}

}  // namespace

Vector Evaluation::arithmetic(const plan::Expr& expr, Rows rows) {
  Vector a = evaluate(*expr.children[0], rows);
  Vector b = evaluate(*expr.children[1], rows);
  auto temporal = [](const SqlType& type) {
    return type.is_temporal() || type.id == TypeId::kInterval;
  };
  if (temporal(expr.children[0]->type) || temporal(expr.children[1]->type))
    return temporal_arithmetic(*this, expr, std::move(a), std::move(b), rows);
  if (expr.type.id == TypeId::kDecimal)
    return decimal_arithmetic(*this, expr, std::move(a), std::move(b), rows);
  if (expr.type.id == TypeId::kDouble)
    return double_arithmetic(*this, expr, std::move(a), std::move(b), rows);
  if (!expr.type.is_integer()) unsupported(expr);
  a = cast(std::move(a), expr.type, rows);
  b = cast(std::move(b), expr.type, rows);
  Vector out = make_vector(expr.type);
  intersect_into(out, a);
  intersect_into(out, b);
  exact_arithmetic(expr.arithmetic_op, a, b, out, rows, overflow_message(expr.type));
  return out;
}

Vector Evaluation::negate(const plan::Expr& expr, Rows rows) {
  Vector operand = cast(evaluate(*expr.children[0], rows), expr.type, rows);
  if (expr.type.id == TypeId::kInterval) {
    const Interval* in = operand.values<Interval>();
    return per_row<Interval>(*this, expr.type, {&operand}, rows,
                             [&](uint32_t p) { return negated(in[p]); });
  }
  Vector out = make_vector(expr.type);
  intersect_into(out, operand);
  if (expr.type.id == TypeId::kDouble) {
    const double* in = operand.values<double>();
    double* result = out.mutable_values<double>();
    for_each_row(rows.sel, rows.n, [&](uint32_t p) { result[p] = -in[p]; });
    return out;
  }
  if (!expr.type.is_integer() && expr.type.id != TypeId::kDecimal) unsupported(expr);
  Vector zero = make_vector(expr.type);  // zeroed
  exact_arithmetic(ArithmeticOp::kSubtract, zero, operand, out, rows, overflow_message(expr.type));
  return out;
}

}  // namespace floe::vectorized
