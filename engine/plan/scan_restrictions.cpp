// SARG extraction (DESIGN.md "Scans"; Data Blocks paper §3.4 and §4): the conjuncts of a
// scan's filters that compare one of its columns with constants become ScanRestrictions,
// which the vectorized scan evaluates on hot chunks and on the compressed data of Data
// Blocks (with SMA, dictionary and PSMA skipping). SARGable forms:
//   column = < <= > >= constant (either side), BETWEEN (two such conjuncts, merged),
//   column IS [NOT] NULL, column IN (constants), column LIKE 'prefix%'.
// A restriction is exact (NULL never passes one, as in a WHERE clause), so the generated code
// does not evaluate it again. Conjuncts whose semantics a plain range cannot express stay
// ordinary filters: intervals (no total order of PostgreSQL's kind), NaN constants, and
// double ranges without an upper bound (NaN sorts above every number in PostgreSQL, but
// compares false in a range).
#include <algorithm>
#include <cmath>

#include "engine/plan/expression_utils.h"
#include "engine/plan/optimizer.h"
#include "engine/plan/parameter_restrictions.h"
#include "storage/stack_depth.h"

namespace floe::plan {

namespace {

// The table column a scan column expression reads, seen through casts that do not change a
// string's bytes (char(n)/varchar(n) -> text: values are stored without trailing blanks).
std::optional<size_t> table_column_of(const Expr& expr, const ScanOp& scan) {
  const Expr* column = &expr;
  if (column->kind == ExprKind::kCast && column->type.id == TypeId::kText &&
      column->children[0]->type.is_string())
    column = column->children[0].get();
  if (column->kind != ExprKind::kColumn) return std::nullopt;
  for (const auto& scanned : scan.columns)
    if (scanned.id == column->column) return scanned.table_column;
  return std::nullopt;
}

// A $n of the column's type (a double could be NaN, which a range cannot express).
bool usable_parameter(const Expr& expr, const SqlType& column_type) {
  return expr.kind == ExprKind::kParameter && column_type.id != TypeId::kDouble &&
         (column_type.is_string() ? expr.type.is_string() : expr.type == column_type);
}

bool usable_constant(const Expr& expr, const SqlType& column_type) {
  if (expr.kind != ExprKind::kConstant || expr.constant.is_null()) return false;
  const SqlType& type = expr.constant.type();
  if (column_type.is_string()) return type.is_string();
  if (type != column_type) return false;
  return type.id != TypeId::kDouble || !std::isnan(expr.constant.as_double());
}

// The constant as a value the scan compares with the column's physical values: strings
// compare bytewise whatever their declared length.
Value restriction_constant(const Value& constant, const SqlType& column_type) {
  if (!column_type.is_string()) return constant;
  return Value::string(constant.as_string(), column_type);
}

std::optional<ScanRestriction> comparison(const Expr& expr, const ScanOp& scan) {
  const Expr* column_side = expr.children[0].get();
  const Expr* constant_side = expr.children[1].get();
  CompareOp op = expr.compare_op;
  if (!table_column_of(*column_side, scan)) {
    std::swap(column_side, constant_side);
    op = mirrored(op);
  }
  auto column = table_column_of(*column_side, scan);
  if (!column || op == CompareOp::kNotEqual) return std::nullopt;
  const SqlType& type = scan.table->columns()[*column].type;
  const bool parameter = usable_parameter(*constant_side, type);
  if (type.id == TypeId::kInterval || (!parameter && !usable_constant(*constant_side, type)))
    return std::nullopt;

  ScanRestriction restriction;
  restriction.column = *column;
  ScanRestriction::Bound bound{parameter ? Value::null(type)
                                         : restriction_constant(constant_side->constant, type),
                               op != CompareOp::kLess && op != CompareOp::kGreater};
  if (parameter) bound.parameter = static_cast<int32_t>(constant_side->parameter);
  if (op == CompareOp::kEqual || op == CompareOp::kGreater || op == CompareOp::kGreaterEqual)
    restriction.low = bound;
  if (op == CompareOp::kEqual || op == CompareOp::kLess || op == CompareOp::kLessEqual)
    restriction.high = bound;
  if (type.id == TypeId::kDouble && !restriction.high) return std::nullopt;
  return restriction;
}

std::optional<ScanRestriction> in_list(const Expr& expr, const ScanOp& scan) {
  auto column = table_column_of(*expr.children[0], scan);
  if (expr.negated || !column) return std::nullopt;
  const SqlType& type = scan.table->columns()[*column].type;
  if (type.id == TypeId::kInterval) return std::nullopt;
  ScanRestriction restriction;
  restriction.column = *column;
  restriction.kind = ScanRestriction::Kind::kIn;
  for (size_t i = 1; i < expr.children.size(); ++i) {
    const Expr& value = *expr.children[i];
    // x IN (1, NULL) is NULL, not true, where x <> 1: the same as false in a filter.
    if (value.kind == ExprKind::kConstant && value.constant.is_null()) continue;
    if (!usable_constant(value, type)) return std::nullopt;
    Value constant = restriction_constant(value.constant, type);
    bool seen = false;
    for (const Value& existing : restriction.values) seen = seen || existing == constant;
    if (!seen) restriction.values.push_back(std::move(constant));
  }
  if (restriction.values.empty()) return std::nullopt;
  return restriction;
}

// LIKE 'prefix%' (no other wildcard or escape) is the byte range [prefix, next(prefix)).
std::optional<ScanRestriction> like_prefix(const Expr& expr, const ScanOp& scan) {
  auto column = table_column_of(*expr.children[0], scan);
  const Expr& pattern = *expr.children[1];
  if (expr.negated || !column || pattern.kind != ExprKind::kConstant || pattern.constant.is_null())
    return std::nullopt;
  const std::string& text = pattern.constant.as_string();
  size_t wildcard = text.find_first_of("%_\\");
  if (wildcard == std::string::npos || text[wildcard] != '%' ||
      text.find_first_not_of('%', wildcard) != std::string::npos)
    return std::nullopt;
  const SqlType& type = scan.table->columns()[*column].type;
  ScanRestriction restriction;
  restriction.column = *column;
  std::string prefix = text.substr(0, wildcard);
  if (prefix.empty()) {
    restriction.kind = ScanRestriction::Kind::kIsNotNull;
    return restriction;
  }
  restriction.low = ScanRestriction::Bound{Value::string(prefix, type), true};
  // The smallest string above every string starting with `prefix`: drop trailing 0xFF bytes,
  // then increment the last byte. A prefix of only 0xFF bytes has no upper bound.
  std::string next = prefix;
  while (!next.empty() && static_cast<unsigned char>(next.back()) == 0xFF) next.pop_back();
  if (!next.empty()) {
    next.back() = static_cast<char>(static_cast<unsigned char>(next.back()) + 1);
    restriction.high = ScanRestriction::Bound{Value::string(next, type), false};
  }
  return restriction;
}

std::optional<ScanRestriction> as_restriction(const Expr& expr, const ScanOp& scan) {
  switch (expr.kind) {
    case ExprKind::kCompare:
      return comparison(expr, scan);
    case ExprKind::kInList:
      return in_list(expr, scan);
    case ExprKind::kLike:
      return like_prefix(expr, scan);
    case ExprKind::kIsNull: {
      auto column = table_column_of(*expr.children[0], scan);
      if (!column) return std::nullopt;
      ScanRestriction restriction;
      restriction.column = *column;
      restriction.kind =
          expr.negated ? ScanRestriction::Kind::kIsNotNull : ScanRestriction::Kind::kIsNull;
      return restriction;
    }
    default:
      return std::nullopt;
  }
}

// a >= x AND a < y: one range, so that a Data Block's SMA and PSMA see both bounds at once.
bool merge_into(std::vector<ScanOp::Restriction>& restrictions, ExprPtr& predicate,
                ScanRestriction& restriction) {
  if (restriction.kind != ScanRestriction::Kind::kRange) return false;
  for (auto& existing : restrictions) {
    ScanRestriction& other = existing.restriction;
    if (other.kind != ScanRestriction::Kind::kRange || other.column != restriction.column) continue;
    bool fills_low = !other.low && restriction.low && !restriction.high;
    bool fills_high = !other.high && restriction.high && !restriction.low;
    if (!fills_low && !fills_high) continue;
    if (fills_low) other.low = restriction.low;
    if (fills_high) other.high = restriction.high;
    std::vector<ExprPtr> both;
    both.push_back(std::move(existing.predicate));
    both.push_back(std::move(predicate));
    existing.predicate = make_conjunction(std::move(both));
    return true;
  }
  return false;
}

// Where a restriction goes in the scan's order: the first restriction is tested on every
// row, the later ones only on the rows that passed (Data Blocks paper §4.2: find matches,
// then reduce them). Comparing strings in hot chunks costs many times what comparing
// fixed-width values does, so restrictions on string columns go last. Kinds tie in the
// order the query wrote them.
int evaluation_rank(const ScanOp& scan, const ScanRestriction& restriction) {
  return scan.table->columns()[restriction.column].type.is_string() ? 1 : 0;
}

void extract(LogicalOp& op) {
  check_stack_depth();
  if (op.kind == LogicalKind::kScan) {
    auto& scan = static_cast<ScanOp&>(op);
    std::vector<ExprPtr> remaining;
    for (ExprPtr& filter : scan.filters) {
      auto restriction = as_restriction(*filter, scan);
      if (!restriction) {
        remaining.push_back(std::move(filter));
        continue;
      }
      if (!merge_into(scan.restrictions, filter, *restriction))
        scan.restrictions.push_back({std::move(filter), std::move(*restriction)});
    }
    scan.filters = std::move(remaining);
    std::stable_sort(scan.restrictions.begin(), scan.restrictions.end(),
                     [&](const ScanOp::Restriction& a, const ScanOp::Restriction& b) {
                       return evaluation_rank(scan, a.restriction) <
                              evaluation_rank(scan, b.restriction);
                     });
  }
  for (LogicalOpPtr& child : op.children) extract(*child);
}

}  // namespace

bool has_parameters(const ScanRestriction& restriction) {
  return (restriction.low && restriction.low->parameter >= 0) ||
         (restriction.high && restriction.high->parameter >= 0);
}

std::optional<ScanRestriction> with_parameters(const ScanRestriction& restriction,
                                               const SqlType& column_type,
                                               const std::vector<Value>& parameters) {
  ScanRestriction bound = restriction;
  for (auto* limit : {&bound.low, &bound.high}) {
    if (!*limit || (*limit)->parameter < 0) continue;
    const Value& value = parameters[static_cast<size_t>((*limit)->parameter)];
    if (value.is_null()) return std::nullopt;
    (*limit)->value = restriction_constant(value, column_type);
  }
  return bound;
}

void extract_scan_restrictions(LogicalPlan& plan) {
  if (plan.root) extract(*plan.root);
}

}  // namespace floe::plan
