#include "engine/sql/window_frame_binder.h"

#include <set>
#include <string>

#include "engine/plan/expression_utils.h"
#include "engine/sql/expression_binder.h"
#include "engine/sql/type_rules.h"
#include "engine/vector/expression_executor.h"
#include "storage/error.h"

namespace floe::sql {

using plan::ExprPtr;
using Bound = WindowFrame::Bound;
using Unit = WindowFrame::Unit;

namespace {

// PostgreSQL's WindowDef.frameOptions bits (nodes/parsenodes.h).
constexpr int32_t kFrameNonDefault = 0x00001;
constexpr int32_t kFrameRows = 0x00004;
constexpr int32_t kFrameGroups = 0x00008;
// A frame end's bit is the start's shifted left by one.
constexpr int32_t kStartUnboundedPreceding = 0x00020;
constexpr int32_t kStartUnboundedFollowing = 0x00080;
constexpr int32_t kStartCurrentRow = 0x00200;
constexpr int32_t kStartOffsetPreceding = 0x00800;
constexpr int32_t kStartOffsetFollowing = 0x02000;
constexpr int32_t kStartOffsets = kStartOffsetPreceding | kStartOffsetFollowing;
constexpr int32_t kOffsets = kStartOffsets | kStartOffsets << 1;
constexpr int32_t kExcludeCurrentRow = 0x08000;
constexpr int32_t kExcludeGroup = 0x10000;
constexpr int32_t kExcludeTies = 0x20000;
constexpr int32_t kDefaultFrame = 0x00002 | kStartUnboundedPreceding | (kStartCurrentRow << 1);

// The start (or end) bound the options name.
Bound frame_bound(int32_t options, bool end) {
  auto has = [&](int32_t start_bit) { return (options & (end ? start_bit << 1 : start_bit)) != 0; };
  if (has(kStartUnboundedPreceding)) return Bound::kUnboundedPreceding;
  if (has(kStartUnboundedFollowing)) return Bound::kUnboundedFollowing;
  if (has(kStartOffsetPreceding)) return Bound::kPreceding;
  if (has(kStartOffsetFollowing)) return Bound::kFollowing;
  return Bound::kCurrentRow;
}

WindowFrame::Exclusion exclusion(int32_t options) {
  if (options & kExcludeCurrentRow) return WindowFrame::Exclusion::kCurrentRow;
  if (options & kExcludeGroup) return WindowFrame::Exclusion::kGroup;
  if (options & kExcludeTies) return WindowFrame::Exclusion::kTies;
  return WindowFrame::Exclusion::kNoOthers;
}

const char* unit_name(Unit unit) {
  switch (unit) {
    case Unit::kRows:
      return "ROWS";
    case Unit::kGroups:
      return "GROUPS";
    case Unit::kRange:
      return "RANGE";
  }
  return "?";
}

// An offset: an expression without variables, folded to its value (PostgreSQL evaluates it
// once, when the window starts).
ExprPtr fold_offset(const Node* node, Unit unit,
                    const std::function<ExprPtr(const Node*)>& bind_offset) {
  ExprPtr expr = bind_offset(node);
  std::set<plan::ColumnId> columns;
  plan::collect_columns(*expr, columns);
  if (!columns.empty())
    throw Error(std::string("argument of ") + unit_name(unit) + " must not contain variables",
                node_location(node));
  if (expr->kind == plan::ExprKind::kConstant) return expr;
  ExprPtr folded = plan::make_constant(vectorized::evaluate_scalar(*expr));
  folded->position = expr->position;
  return folded;
}

void check_not_null(const Value& value, bool start) {
  if (value.is_null())
    throw Error(std::string("frame ") + (start ? "starting" : "ending") +
                " offset must not be null");
}

// A ROWS or GROUPS offset: a count, cast to bigint, that is neither NULL nor negative.
uint64_t count_offset(const Node* node, bool start, Unit unit,
                      const std::function<ExprPtr(const Node*)>& bind_offset) {
  ExprPtr expr = fold_offset(node, unit, bind_offset);
  if (is_unknown_literal(*expr)) expr = coerce(std::move(expr), SqlType::big_int());
  if (!expr->type.is_numeric())
    throw Error(std::string("argument of ") + unit_name(unit) + " must be type bigint, not type " +
                    expr->type.to_string(),
                node_location(node));
  Value value = cast_value(expr->constant, SqlType::big_int());
  check_not_null(value, start);
  if (value.as_int64() < 0)
    throw Error(std::string("frame ") + (start ? "starting" : "ending") +
                " offset must not be negative");
  return static_cast<uint64_t>(value.as_int64());
}

// The type of a RANGE offset for an ORDER BY key of type `key` (PostgreSQL's in_range
// support functions), or nullopt when there is none.
std::optional<SqlType> offset_type(const SqlType& key, const SqlType& offset) {
  bool unknown = offset.id == TypeId::kUnknown;
  switch (key.id) {
    case TypeId::kSmallInt:
    case TypeId::kInteger:
    case TypeId::kBigInt:
      if (unknown) return key;
      if (offset.is_integer()) return offset;
      return std::nullopt;
    case TypeId::kDecimal:
      if (unknown || offset.is_integer()) return as_decimal(unknown ? key : offset);
      if (offset.id == TypeId::kDecimal) return offset;
      return std::nullopt;
    case TypeId::kDouble:
      if (unknown || offset.is_numeric()) return SqlType::double_type();
      return std::nullopt;
    case TypeId::kDate:
    case TypeId::kTimestamp:
    case TypeId::kInterval:
      if (unknown || offset.id == TypeId::kInterval) return SqlType::interval();
      return std::nullopt;
    default:
      return std::nullopt;
  }
}

// The type the key and its bounds are compared in: integer keys as numeric, so that no
// bound overflows (PostgreSQL's in_range functions treat an overflowing bound as infinite);
// dates as timestamps (date ± interval is a timestamp).
SqlType bound_type(const SqlType& key, const SqlType& offset) {
  if (key.is_integer()) return SqlType::decimal(kMaxDecimalPrecision, 0);
  if (key.id == TypeId::kDecimal)
    return SqlType::decimal(kMaxDecimalPrecision, std::max(key.scale, offset.scale));
  if (key.id == TypeId::kDate) return SqlType::timestamp();
  return key;
}

bool negative(const Value& value) {
  switch (value.type().id) {
    case TypeId::kInterval:
      return compare_intervals(value.as_interval(), Interval{}) < 0;
    case TypeId::kDouble:
      return !(value.as_double() >= 0);  // NaN too
    default:
      return compare_values(value, cast_value(Value::integer(0), value.type())) < 0;
  }
}

// RANGE n PRECEDING / FOLLOWING: the current row's bound, key ∓ n in the key's order.
ExprPtr range_bound(const Node* node, bool start, bool preceding, const plan::SortKey& key,
                    const std::function<ExprPtr(const Node*)>& bind_offset) {
  ExprPtr offset = fold_offset(node, Unit::kRange, bind_offset);
  std::optional<SqlType> type = offset_type(key.expr->type, offset->type);
  if (!type) {
    std::string message = "RANGE with offset PRECEDING/FOLLOWING is not supported for column type " +
                          type_name(key.expr->type);
    if (offset_type(key.expr->type, SqlType::unknown()))
      throw Error(message + " and offset type " + type_name(offset->type), node_location(node));
    throw Error(message, node_location(node));
  }
  offset = coerce(std::move(offset), *type);
  Value value = offset->kind == plan::ExprKind::kConstant ? offset->constant
                                                          : vectorized::evaluate_scalar(*offset);
  check_not_null(value, start);
  if (negative(value)) throw Error("invalid preceding or following size in window function");
  SqlType compared = bound_type(key.expr->type, *type);
  ExprPtr current = coerce(key.expr->clone(), compared);
  if (compared.id != TypeId::kTimestamp) offset = coerce(plan::make_constant(value), compared);
  else offset = plan::make_constant(value);
  bool subtract = preceding != key.descending;
  ExprPtr bound = ExpressionBinder::arithmetic(subtract ? "-" : "+", std::move(current),
                                               std::move(offset), node_location(node));
  return coerce(std::move(bound), compared);
}

}  // namespace

bool has_frame_clause(int32_t options) {
  return (options & kFrameNonDefault) != 0;
}

BoundFrame bind_window_frame(const FrameClause& clause, const std::vector<plan::SortKey>& order,
                             const std::function<ExprPtr(const Node*)>& bind_offset,
                             int location) {
  int32_t options = clause.options ? clause.options : kDefaultFrame;
  BoundFrame result;
  WindowFrame& frame = result.frame;
  frame.unit = options & kFrameRows     ? Unit::kRows
               : options & kFrameGroups ? Unit::kGroups
                                        : Unit::kRange;
  frame.start = frame_bound(options, false);
  frame.end = frame_bound(options, true);
  frame.exclusion = exclusion(options);
  if (frame.unit == Unit::kGroups && order.empty())
    throw Error("GROUPS mode requires an ORDER BY clause", location);
  if (frame.unit == Unit::kRange && (options & kOffsets)) {
    if (order.size() != 1)
      throw Error("RANGE with offset PRECEDING/FOLLOWING requires exactly one ORDER BY column",
                  location);
    if (clause.start_offset)
      result.start_bound = range_bound(clause.start_offset, true,
                                       frame.start == Bound::kPreceding, order[0], bind_offset);
    if (clause.end_offset)
      result.end_bound = range_bound(clause.end_offset, false, frame.end == Bound::kPreceding,
                                     order[0], bind_offset);
    const SqlType& compared = (result.start_bound ? result.start_bound : result.end_bound)->type;
    result.range_key = coerce(order[0].expr->clone(), compared);
    return result;
  }
  if (clause.start_offset)
    frame.start_offset = count_offset(clause.start_offset, true, frame.unit, bind_offset);
  if (clause.end_offset)
    frame.end_offset = count_offset(clause.end_offset, false, frame.unit, bind_offset);
  return result;
}

}  // namespace floe::sql
