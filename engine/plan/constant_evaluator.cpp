#include "engine/plan/constant_evaluator.h"

#include <cmath>
#include <limits>

#include "runtime/function_registry.h"
#include "storage/date_time.h"
#include "storage/error.h"
#include "storage/stack_depth.h"

namespace floe::plan {

namespace {

// Integer results (and date ± integer) with the range check of their type.
Value integer_value(int128_t value, const SqlType& type) {
  if (type.id != TypeId::kDate) return make_integer(value, type);
  if (value > std::numeric_limits<int32_t>::max() || value < std::numeric_limits<int32_t>::min())
    throw Error("date out of range");
  return Value::date(static_cast<int32_t>(value));
}

Value integer_arithmetic(ArithmeticOp op, int128_t a, int128_t b, const SqlType& type) {
  switch (op) {
    case ArithmeticOp::kAdd:
      return integer_value(a + b, type);
    case ArithmeticOp::kSubtract:
      return integer_value(a - b, type);
    case ArithmeticOp::kMultiply:
      return integer_value(a * b, type);
    case ArithmeticOp::kDivide:
      if (b == 0) throw Error("division by zero");
      return integer_value(a / b, type);
    case ArithmeticOp::kModulo:
      if (b == 0) throw Error("division by zero");
      return integer_value(a % b, type);
  }
  return Value();
}

// storage/decimal.h's operations, as generated code performs them.
Value decimal_arithmetic(ArithmeticOp op, int128_t a, int128_t b, const SqlType& type) {
  std::optional<int128_t> result;
  switch (op) {
    case ArithmeticOp::kAdd:
      result = add_decimals(a, b, type.precision);
      break;
    case ArithmeticOp::kSubtract:
      result = subtract_decimals(a, b, type.precision);
      break;
    case ArithmeticOp::kMultiply:
      result = multiply_decimals(a, b, type.precision);
      break;
    case ArithmeticOp::kModulo:
      if (b == 0) throw Error("division by zero");
      result = a % b;
      break;
    case ArithmeticOp::kDivide:
      throw Error("decimal division is planned as double division");
  }
  return Value::decimal(decimal_or_overflow(result), type.precision, type.scale);
}

Value double_arithmetic(ArithmeticOp op, double a, double b) {
  switch (op) {
    case ArithmeticOp::kAdd:
      return Value::double_value(a + b);
    case ArithmeticOp::kSubtract:
      return Value::double_value(a - b);
    case ArithmeticOp::kMultiply:
      return Value::double_value(a * b);
    case ArithmeticOp::kDivide:
      if (b == 0) throw Error("division by zero");
      return Value::double_value(a / b);
    case ArithmeticOp::kModulo:
      break;
  }
  throw Error("operator does not exist: double precision % double precision");
}

int64_t as_micros(const Value& value) {
  return value.type().id == TypeId::kDate ? value.as_int64() * kMicrosPerDay : value.as_int64();
}

// The date, timestamp and interval forms of engine/plan/expression.h.
std::optional<Value> temporal_arithmetic(const Expr& expr, const Value& a, const Value& b) {
  TypeId left = a.type().id, right = b.type().id;
  bool subtract = expr.arithmetic_op == ArithmeticOp::kSubtract;
  if (right == TypeId::kInterval && (left == TypeId::kDate || left == TypeId::kTimestamp)) {
    Interval interval = b.as_interval();
    if (subtract) interval = add_intervals({}, interval, true);
    return Value::timestamp(add_interval_to_timestamp(as_micros(a), interval));
  }
  if (left == TypeId::kTimestamp && right == TypeId::kTimestamp)
    return Value::interval(subtract_timestamps(a.as_int64(), b.as_int64()));
  if (left == TypeId::kInterval && right == TypeId::kInterval)
    return Value::interval(add_intervals(a.as_interval(), b.as_interval(), subtract));
  if (left == TypeId::kInterval && expr.arithmetic_op == ArithmeticOp::kMultiply)
    return Value::interval(multiply_interval(a.as_interval(), b.as_double()));
  if (left == TypeId::kInterval && expr.arithmetic_op == ArithmeticOp::kDivide)
    return Value::interval(divide_interval(a.as_interval(), b.as_double()));
  return std::nullopt;
}

Value arithmetic(const Expr& expr, const Value& a, const Value& b) {
  const SqlType& type = expr.type;
  TypeId left = a.type().id;
  if (auto temporal = temporal_arithmetic(expr, a, b)) return *temporal;
  if (left == TypeId::kDate)
    return integer_arithmetic(expr.arithmetic_op, a.as_int128(), b.as_int128(), type);
  switch (type.id) {
    case TypeId::kSmallInt:
    case TypeId::kInteger:
    case TypeId::kBigInt:
      return integer_arithmetic(expr.arithmetic_op, a.as_int128(), b.as_int128(), type);
    case TypeId::kDecimal:
      return decimal_arithmetic(expr.arithmetic_op, a.as_int128(), b.as_int128(), type);
    case TypeId::kDouble:
      return double_arithmetic(expr.arithmetic_op, a.as_double(), b.as_double());
    default:
      throw Error("no constant arithmetic for " + type.to_string());
  }
}

bool compare_result(CompareOp op, int order) {
  switch (op) {
    case CompareOp::kEqual:
      return order == 0;
    case CompareOp::kNotEqual:
      return order != 0;
    case CompareOp::kLess:
      return order < 0;
    case CompareOp::kLessEqual:
      return order <= 0;
    case CompareOp::kGreater:
      return order > 0;
    case CompareOp::kGreaterEqual:
      return order >= 0;
  }
  return false;
}

std::optional<Value> logical(const Expr& expr, const std::vector<Value>& values) {
  bool is_and = expr.kind == ExprKind::kAnd;
  bool saw_null = false;
  for (const Value& v : values) {
    if (v.is_null())
      saw_null = true;
    else if (v.as_bool() != is_and)
      return Value::boolean(!is_and);
  }
  return saw_null ? Value::null(SqlType::boolean()) : Value::boolean(is_and);
}

}  // namespace

int compare_values(const Value& a, const Value& b) {
  switch (a.type().physical()) {
    case PhysicalType::kDouble: {
      double x = a.as_double(), y = b.as_double();
      if (std::isnan(x) || std::isnan(y)) return std::isnan(x) - std::isnan(y);
      return (x > y) - (x < y);
    }
    case PhysicalType::kInterval:
      return compare_intervals(a.as_interval(), b.as_interval());
    case PhysicalType::kString: {
      int order = a.as_string().compare(b.as_string());
      return (order > 0) - (order < 0);
    }
    default:
      return (a.as_int128() > b.as_int128()) - (a.as_int128() < b.as_int128());
  }
}

namespace {

// `expr` over constant children; a volatile function is evaluated only when `call_volatile`.
std::optional<Value> evaluate_node(const Expr& expr, bool call_volatile) {
  std::vector<Value> values;
  for (const ExprPtr& child : expr.children) {
    if (child->kind != ExprKind::kConstant) return std::nullopt;
    values.push_back(child->constant);
  }
  auto any_null = [&]() {
    for (const Value& v : values)
      if (v.is_null()) return true;
    return false;
  };
  switch (expr.kind) {
    case ExprKind::kCast:
      return cast_value(values[0], expr.type, CastKind::kExplicit);
    case ExprKind::kArithmetic:
      if (any_null()) return Value::null(expr.type);
      return arithmetic(expr, values[0], values[1]);
    case ExprKind::kNegate:
      if (any_null()) return Value::null(expr.type);
      if (expr.type.is_integer()) return integer_value(-values[0].as_int128(), expr.type);
      if (expr.type.id == TypeId::kDecimal)  // -x has the digits of x
        return Value::decimal(-values[0].as_int128(), expr.type.precision, expr.type.scale);
      if (expr.type.id == TypeId::kDouble) return Value::double_value(-values[0].as_double());
      if (expr.type.id == TypeId::kInterval)
        return Value::interval(add_intervals({}, values[0].as_interval(), true));
      return std::nullopt;
    case ExprKind::kCompare:
      if (any_null()) return Value::null(SqlType::boolean());
      return Value::boolean(compare_result(expr.compare_op, compare_values(values[0], values[1])));
    case ExprKind::kAnd:
    case ExprKind::kOr:
      return logical(expr, values);
    case ExprKind::kNot:
      if (any_null()) return Value::null(SqlType::boolean());
      return Value::boolean(!values[0].as_bool());
    case ExprKind::kIsNull:
      return Value::boolean(values[0].is_null() != expr.negated);
    case ExprKind::kCoalesce:
      for (const Value& v : values)
        if (!v.is_null()) return v;
      return Value::null(expr.type);
    case ExprKind::kCase:
      for (size_t i = 0; i + 1 < values.size(); i += 2)
        if (!values[i].is_null() && values[i].as_bool()) return values[i + 1];
      return values.back();
    case ExprKind::kGreatest:
    case ExprKind::kLeast: {
      const Value* best = nullptr;
      int sign = expr.kind == ExprKind::kGreatest ? 1 : -1;
      for (const Value& v : values)
        if (!v.is_null() && (!best || sign * compare_values(v, *best) > 0)) best = &v;
      return best ? *best : Value::null(expr.type);
    }
    case ExprKind::kFunction:
      if (expr.function->is_volatile && !call_volatile) return std::nullopt;
      if (any_null()) return Value::null(expr.type);
      return expr.function->call(values, expr.type);
    case ExprKind::kExtract: {
      if (any_null()) return Value::null(expr.type);
      const Value& source = values[0];
      int128_t scaled;
      if (source.type().id == TypeId::kInterval)
        scaled = extract_from_interval(expr.date_part, source.as_interval());
      else if (source.type().id == TypeId::kDate)
        scaled = extract_from_date(expr.date_part, static_cast<int32_t>(source.as_int64()));
      else
        scaled = extract_from_timestamp(expr.date_part, source.as_int64());
      return Value::decimal(scaled, expr.type.precision, expr.type.scale);
    }
    default:
      return std::nullopt;
  }
}

}  // namespace

std::optional<Value> evaluate_constant(const Expr& expr) {
  return evaluate_node(expr, false);
}

Value evaluate(const Expr& expr) {
  check_stack_depth();
  if (expr.kind == ExprKind::kConstant) return expr.constant;
  auto shallow = std::make_unique<Expr>();
  shallow->kind = expr.kind;
  shallow->type = expr.type;
  shallow->arithmetic_op = expr.arithmetic_op;
  shallow->compare_op = expr.compare_op;
  shallow->negated = expr.negated;
  shallow->date_part = expr.date_part;
  shallow->function = expr.function;
  for (const ExprPtr& child : expr.children)
    shallow->children.push_back(make_constant(evaluate(*child)));
  auto value = evaluate_node(*shallow, true);
  if (!value) throw NotSupported("this expression outside a query", expr.position);
  return value->is_null() ? Value::null(expr.type) : cast_value(*value, expr.type);
}

}  // namespace floe::plan
