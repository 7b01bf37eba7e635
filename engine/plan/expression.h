// Bound scalar expressions. The binder produces them fully typed, with explicit casts
// inserted so that code generators never have to guess representations:
//  - kArithmetic add/sub/mod and kCompare: both children have the same SqlType
//    (except the date/interval/timestamp forms listed below);
//  - kArithmetic mul on decimals: children may differ; result scale = sum of scales;
//  - kArithmetic div: integers (truncating, error on zero) or doubles; decimal division is
//    planned as double division;
//  - date + integer -> date, date - date -> integer, date +/- interval -> timestamp,
//    timestamp +/- interval -> timestamp.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "storage/date_time.h"
#include "storage/types.h"
#include "storage/value.h"

namespace floe {
struct FunctionOverload;
}

namespace floe::plan {

// An information unit: one value produced by an operator (HyPer style). Unique per plan.
using ColumnId = uint32_t;

struct LogicalOp;
class ColumnRegistry;

enum class ExprKind : uint8_t {
  kColumn,          // column
  kConstant,        // constant
  kArithmetic,      // arithmetic_op, children [left, right]
  kNegate,          // children [operand]
  kCompare,         // compare_op, children [left, right]
  kAnd,             // n-ary, three-valued
  kOr,              // n-ary, three-valued
  kNot,             // children [operand]
  kIsNull,          // children [operand]; negated = IS NOT NULL
  kCase,            // children [when1, then1, ..., whenN, thenN, else]; else always present
  kCast,            // children [operand] -> type
  kLike,            // children [string, pattern]; negated = NOT LIKE
  kInList,          // children [needle, v1, ..., vN] all of one type; negated = NOT IN
  kCoalesce,        // children [a, b, ...]
  kExtract,         // date_part, children [date or timestamp] -> bigint
  kScalarSubquery,  // subquery producing `column`; NULL when it has no rows
  kExists,          // EXISTS (subquery); negated = NOT EXISTS
  kInSubquery,      // children [needles] compare_op ANY (subquery producing `columns`, one
                    // per needle; several only with kEqual: row-valued IN); negated = NOT
                    // that (NOT IN; x op ALL is NOT (x negated-op ANY))
  kGreatest,        // GREATEST(children...), all of one type; NULLs left out
  kLeast,           // LEAST(children...), likewise
  kFunction,        // `function` (a registry overload), children [arguments], each of the
                    // overload's parameter type
  kParameter,       // $n of a prepared statement: `parameter` = n - 1; its value is read at
                    // run time (runtime/parameter_slot.h), never folded
  // The three subquery kinds never reach code generation: correlated ones and EXISTS/IN are
  // unnested into joins (subquery_unnesting.h), uncorrelated scalar ones become constants.
};

enum class ArithmeticOp : uint8_t { kAdd, kSubtract, kMultiply, kDivide, kModulo };
enum class CompareOp : uint8_t { kEqual, kNotEqual, kLess, kLessEqual, kGreater, kGreaterEqual };

struct Expr;
using ExprPtr = std::unique_ptr<Expr>;

struct Expr {
  ExprKind kind;
  SqlType type;
  bool nullable = true;
  int position = -1;  // byte offset in the statement, for error messages

  std::vector<ExprPtr> children;
  ColumnId column = 0;
  std::vector<ColumnId> columns;  // kInSubquery
  Value constant;
  ArithmeticOp arithmetic_op = ArithmeticOp::kAdd;
  CompareOp compare_op = CompareOp::kEqual;
  bool negated = false;
  DatePart date_part = DatePart::kYear;
  const FunctionOverload* function = nullptr;  // kFunction
  uint32_t parameter = 0;                      // kParameter
  // Subquery kinds: the plan. It may read columns of enclosing queries (correlation).
  std::shared_ptr<LogicalOp> subquery;

  ExprPtr clone() const;
  // Readable form for EXPLAIN, e.g. "(l_quantity#3 < 24)"; names come from the registry
  // when given.
  std::string to_string(const ColumnRegistry* registry = nullptr) const;
};

inline bool is_subquery(ExprKind kind) {
  return kind == ExprKind::kScalarSubquery || kind == ExprKind::kExists ||
         kind == ExprKind::kInSubquery;
}

ExprPtr make_column(ColumnId column, SqlType type, bool nullable);
ExprPtr make_constant(Value value);
ExprPtr make_cast(ExprPtr operand, SqlType target);
// $n (index n - 1) of type `type` (unknown until its context decides, engine/sql/type_rules.h).
ExprPtr make_parameter(uint32_t index, SqlType type);

}  // namespace floe::plan
