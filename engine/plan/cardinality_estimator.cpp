#include "engine/plan/cardinality_estimator.h"

#include <algorithm>
#include <cmath>
#include <functional>
#include <map>

#include "engine/plan/expression_utils.h"
#include "runtime/series.h"
#include "storage/error.h"
#include "storage/stack_depth.h"
#include "storage/table_statistics.h"

namespace floe::plan {

namespace {

// PostgreSQL's guess for the rows of a call of a set-returning function (prorows).
constexpr double kRowsPerTableFunctionCall = 1000;

// A series of constants has a known length; else PostgreSQL's guess for a set-returning
// function (a calendar step, or arguments that are subqueries until they run).
double series_rows(const SeriesOp& series) {
  const Expr* arguments[] = {series.start.get(), series.stop.get(), series.step.get()};
  for (const Expr* argument : arguments)
    if (argument->kind != ExprKind::kConstant || argument->constant.is_null())
      return kRowsPerTableFunctionCall;
  auto step = linear_step(series.step->constant);
  if (!step) return kRowsPerTableFunctionCall;
  try {
    return std::max(1.0,
                    static_cast<double>(series_length(series.start->constant.as_int128(),
                                                      series.stop->constant.as_int128(), *step)));
  } catch (const Error&) {
    return kRowsPerTableFunctionCall;  // the error comes when it runs
  }
}

double clamp_fraction(double value) {
  return std::clamp(value, 0.0, 1.0);
}

// Numbers, dates and timestamps as doubles on one scale per type, for interpolation.
std::optional<double> numeric_view(const Value& value) {
  if (value.is_null()) return std::nullopt;
  switch (value.type().id) {
    case TypeId::kSmallInt:
    case TypeId::kInteger:
    case TypeId::kBigInt:
    case TypeId::kDate:
    case TypeId::kTimestamp:
      return static_cast<double>(value.as_int64());
    case TypeId::kDecimal:
      return static_cast<double>(value.as_int128()) / std::pow(10.0, value.type().scale);
    case TypeId::kDouble:
      return value.as_double();
    default:
      return std::nullopt;
  }
}

// Casts between numeric types keep the values (and so the statistics) comparable.
const Expr& strip_numeric_casts(const Expr& expr) {
  const Expr* e = &expr;
  while (e->kind == ExprKind::kCast && e->type.is_numeric() && e->children[0]->type.is_numeric())
    e = e->children[0].get();
  return *e;
}

// "column op constant" (either way round), normalized so that the column is on the left.
struct ColumnComparison {
  const Expr* column;
  CompareOp op;
  const Value* constant;
};

std::optional<ColumnComparison> column_comparison(const Expr& compare) {
  if (compare.kind != ExprKind::kCompare) return std::nullopt;
  const Expr& left = strip_numeric_casts(*compare.children[0]);
  const Expr& right = strip_numeric_casts(*compare.children[1]);
  if (left.kind == ExprKind::kColumn && right.kind == ExprKind::kConstant)
    return ColumnComparison{&left, compare.compare_op, &right.constant};
  if (right.kind == ExprKind::kColumn && left.kind == ExprKind::kConstant)
    return ColumnComparison{&right, mirrored(compare.compare_op), &left.constant};
  return std::nullopt;
}

bool is_range(CompareOp op) {
  return op != CompareOp::kEqual && op != CompareOp::kNotEqual;
}

struct Bounds {
  std::optional<double> lower;
  std::optional<double> upper;
};

}  // namespace

double equi_join_rows(double left_rows, double right_rows, double left_distinct,
                      double right_distinct) {
  double distinct =
      std::max({std::min(left_distinct, left_rows), std::min(right_distinct, right_rows), 1.0});
  return left_rows * right_rows / distinct;
}

double combined_distinct(std::vector<double> column_distinct) {
  std::sort(column_distinct.begin(), column_distinct.end(), std::greater<>());
  double combined = 1, exponent = 1;
  for (double distinct : column_distinct) {
    combined *= std::pow(distinct, exponent);
    exponent /= 2;
  }
  return combined;
}

std::optional<double> covered_primary_key_rows(const std::vector<PrimaryKeyColumn>& columns) {
  std::unordered_map<const Table*, uint32_t> covered;
  for (const PrimaryKeyColumn& column : columns) {
    if (!column.table) continue;
    uint32_t& bits = covered[column.table];
    bits |= column.bit;
    if (bits == column.all_bits) return column.table_rows;
  }
  return std::nullopt;
}

JoinKeyDistinct join_key_distinct(JoinSideKey left, JoinSideKey right) {
  JoinKeyDistinct result{combined_distinct(std::move(left.column_distinct)),
                         combined_distinct(std::move(right.column_distinct))};
  if (auto table_rows = covered_primary_key_rows(right.primary_key)) {
    result.right = right.rows;
    result.left = std::min(result.left, *table_rows);
  }
  if (auto table_rows = covered_primary_key_rows(left.primary_key)) {
    result.left = left.rows;
    result.right = std::min(result.right, *table_rows);
  }
  return result;
}

PrimaryKeyColumn CardinalityEstimator::primary_key_column(const Expr& expr) const {
  const Expr& e = strip_numeric_casts(expr);
  if (e.kind != ExprKind::kColumn) return {};
  auto scanned = scan_columns_.find(e.column);
  if (scanned == scan_columns_.end()) return {};
  auto [table, table_column] = scanned->second;
  const std::vector<size_t>& key = table->primary_key();
  if (key.empty() || key.size() > 32) return {};
  PrimaryKeyColumn result;
  for (size_t i = 0; i < key.size(); ++i)
    if (key[i] == table_column) result.bit = uint32_t{1} << i;
  if (!result.bit) return {};
  result.table = table;
  result.all_bits = key.size() == 32 ? ~uint32_t{0} : (uint32_t{1} << key.size()) - 1;
  result.table_rows = static_cast<double>(table->row_count());
  return result;
}

double CardinalityEstimator::estimate(LogicalOp& op) {
  check_stack_depth();
  for (LogicalOpPtr& child : op.children) estimate(*child);
  op.estimated_rows = std::max(1.0, estimate_operator(op));
  return op.estimated_rows;
}

const ColumnEstimate* CardinalityEstimator::column(ColumnId id) {
  auto found = columns_.find(id);
  if (found != columns_.end()) return &found->second;
  auto scanned = scan_columns_.find(id);
  if (scanned == scan_columns_.end()) return nullptr;
  // Statistics are computed on first use only, column by column.
  auto [table, table_column] = scanned->second;
  auto statistics = table->column_statistics(table_column);
  ColumnEstimate& estimate = columns_[id];
  auto non_null = static_cast<double>(statistics->row_count - statistics->null_count);
  estimate.distinct = std::max(1.0, std::min(statistics->distinct_count, non_null));
  estimate.null_fraction = statistics->row_count ? static_cast<double>(statistics->null_count) /
                                                       static_cast<double>(statistics->row_count)
                                                 : 0;
  estimate.min = numeric_view(statistics->min);
  estimate.max = numeric_view(statistics->max);
  return &estimate;
}

double CardinalityEstimator::distinct_values(const Expr& expr, double input_rows) {
  const Expr& e = strip_numeric_casts(expr);
  if (e.kind == ExprKind::kConstant) return 1;
  const ColumnEstimate* estimate = e.kind == ExprKind::kColumn ? column(e.column) : nullptr;
  double distinct = estimate ? estimate->distinct : input_rows;
  return std::max(1.0, std::min(distinct, input_rows));
}

double CardinalityEstimator::selectivity(const Expr& predicate, double input_rows) {
  check_stack_depth();
  switch (predicate.kind) {
    case ExprKind::kConstant:
      return !predicate.constant.is_null() && predicate.constant.as_bool() ? 1 : 0;
    case ExprKind::kAnd: {
      std::vector<const Expr*> conjuncts;
      for (const ExprPtr& child : predicate.children) conjuncts.push_back(child.get());
      return conjunction_selectivity(conjuncts, input_rows);
    }
    case ExprKind::kOr: {
      double any = 0;  // inclusion-exclusion under independence
      for (const ExprPtr& child : predicate.children) {
        double s = selectivity(*child, input_rows);
        any = any + s - any * s;
      }
      return any;
    }
    case ExprKind::kNot:
      return 1 - selectivity(*predicate.children[0], input_rows);
    case ExprKind::kCompare:
      return compare_selectivity(predicate, input_rows);
    case ExprKind::kIsNull: {
      const Expr& operand = strip_numeric_casts(*predicate.children[0]);
      const ColumnEstimate* estimate =
          operand.kind == ExprKind::kColumn ? column(operand.column) : nullptr;
      double is_null = !operand.nullable ? 0
                       : estimate        ? estimate->null_fraction
                                         : kDefaultSelectivity;
      return predicate.negated ? 1 - is_null : is_null;
    }
    case ExprKind::kLike: {
      const Expr& pattern = *predicate.children[1];
      double s = kLikeSelectivity;
      if (pattern.kind == ExprKind::kConstant && !pattern.constant.is_null()) {
        const std::string& text = pattern.constant.as_string();
        size_t wildcard = text.find_first_of("%_");
        if (wildcard == std::string::npos)
          s = 1 / distinct_values(*predicate.children[0], input_rows);
        else if (wildcard > 0)
          s = kPrefixLikeSelectivity;
      }
      return predicate.negated ? 1 - s : s;
    }
    case ExprKind::kInList: {
      double listed = static_cast<double>(predicate.children.size() - 1);
      double s = std::min(1.0, listed / distinct_values(*predicate.children[0], input_rows));
      return predicate.negated ? 1 - s : s;
    }
    default:
      return kDefaultSelectivity;
  }
}

// Range conjuncts on one column combine into one interval (a >= x AND a < y) rather than
// multiplying as if independent; everything else multiplies.
double CardinalityEstimator::conjunction_selectivity(const std::vector<const Expr*>& conjuncts,
                                                     double input_rows) {
  double product = 1;
  std::map<ColumnId, Bounds> ranges;
  for (const Expr* conjunct : conjuncts) {
    auto comparison = column_comparison(*conjunct);
    std::optional<double> bound;
    if (comparison && is_range(comparison->op) && column(comparison->column->column))
      bound = numeric_view(*comparison->constant);
    if (!bound) {
      product *= selectivity(*conjunct, input_rows);
      continue;
    }
    Bounds& bounds = ranges[comparison->column->column];
    bool lower =
        comparison->op == CompareOp::kGreater || comparison->op == CompareOp::kGreaterEqual;
    std::optional<double>& side = lower ? bounds.lower : bounds.upper;
    side = !side ? *bound : lower ? std::max(*side, *bound) : std::min(*side, *bound);
  }
  for (const auto& [id, bounds] : ranges)
    product *= range_selectivity(id, bounds.lower, bounds.upper);
  return product;
}

double CardinalityEstimator::compare_selectivity(const Expr& compare, double input_rows) {
  if (auto comparison = column_comparison(compare)) {
    if (comparison->constant->is_null()) return 0;
    double equal = 1 / distinct_values(*comparison->column, input_rows);
    switch (comparison->op) {
      case CompareOp::kEqual:
        return equal;
      case CompareOp::kNotEqual:
        return 1 - equal;
      default:
        break;
    }
    std::optional<double> bound = numeric_view(*comparison->constant);
    if (!bound) return kDefaultSelectivity;
    bool lower =
        comparison->op == CompareOp::kGreater || comparison->op == CompareOp::kGreaterEqual;
    return lower ? range_selectivity(comparison->column->column, bound, std::nullopt)
                 : range_selectivity(comparison->column->column, std::nullopt, bound);
  }
  if (compare.compare_op != CompareOp::kEqual && compare.compare_op != CompareOp::kNotEqual)
    return kDefaultSelectivity;
  double equal = 1 / std::max(distinct_values(*compare.children[0], input_rows),
                              distinct_values(*compare.children[1], input_rows));
  return compare.compare_op == CompareOp::kEqual ? equal : 1 - equal;
}

// Linear interpolation between the column's min and max.
double CardinalityEstimator::range_selectivity(ColumnId id, std::optional<double> lower,
                                               std::optional<double> upper) {
  const ColumnEstimate* estimate = column(id);
  if (!estimate || !estimate->min || !estimate->max) return kDefaultSelectivity;
  double min = *estimate->min, max = *estimate->max;
  double low = std::max(lower.value_or(min), min), high = std::min(upper.value_or(max), max);
  double fraction = max > min ? clamp_fraction((high - low) / (max - min)) : (low <= high ? 1 : 0);
  return fraction * (1 - estimate->null_fraction);
}

double CardinalityEstimator::estimate_join(const JoinOp& join) {
  double probe = join.children[0]->estimated_rows, build = join.children[1]->estimated_rows;
  double inner = probe * build;
  if (!join.keys.empty()) {
    std::vector<double> probe_distinct, build_distinct;
    std::vector<PrimaryKeyColumn> probe_key, build_key;
    for (const JoinOp::KeyPair& key : join.keys) {
      probe_distinct.push_back(distinct_values(*key.probe, probe));
      build_distinct.push_back(distinct_values(*key.build, build));
      probe_key.push_back(primary_key_column(*key.probe));
      build_key.push_back(primary_key_column(*key.build));
    }
    JoinKeyDistinct distinct = join_key_distinct({std::move(probe_distinct), probe_key, probe},
                                                 {std::move(build_distinct), build_key, build});
    inner = equi_join_rows(probe, build, distinct.left, distinct.right);
  }
  if (join.residual) inner *= selectivity(*join.residual, inner);
  switch (join.type) {
    case JoinType::kInner:
      return inner;
    case JoinType::kLeftOuter:
      return std::max(inner, probe);
    case JoinType::kRightOuter:
      return std::max(inner, build);
    case JoinType::kFullOuter:
      return std::max({inner, probe, build});
    case JoinType::kSemi:
      return std::min(inner, probe);
    case JoinType::kMark:
      return probe;
    case JoinType::kAnti:
    case JoinType::kNullAwareAnti:
      return std::max(probe - std::min(inner, probe), probe * kAntiJoinFloor);
    case JoinType::kRightSemi:
      return std::min(inner, build);
    case JoinType::kRightAnti:
      return std::max(build - std::min(inner, build), build * kAntiJoinFloor);
  }
  return inner;
}

double CardinalityEstimator::estimate_operator(LogicalOp& op) {
  double input = op.children.empty() ? 0 : op.children[0]->estimated_rows;
  switch (op.kind) {
    case LogicalKind::kScan: {
      auto& scan = static_cast<ScanOp&>(op);
      for (const ScanOp::Column& c : scan.columns) {
        columns_.erase(c.id);
        scan_columns_[c.id] = {scan.table, c.table_column};
      }
      auto rows = static_cast<double>(scan.table->live_row_count());
      std::vector<const Expr*> filters;
      for (const ExprPtr& filter : scan.filters) filters.push_back(filter.get());
      for (const auto& restriction : scan.restrictions) filters.push_back(restriction.predicate.get());
      return rows * conjunction_selectivity(filters, rows);
    }
    case LogicalKind::kFilter:
      return input * selectivity(*static_cast<const FilterOp&>(op).predicate, input);
    case LogicalKind::kMap:
      for (const MapOp::Computed& computed : static_cast<const MapOp&>(op).computed) {
        const Expr& expr = strip_numeric_casts(*computed.expr);
        const ColumnEstimate* source =
            expr.kind == ExprKind::kColumn ? column(expr.column) : nullptr;
        ColumnEstimate estimate = source ? *source : ColumnEstimate{};
        if (!source) estimate.distinct = distinct_values(expr, input);
        columns_[computed.id] = estimate;
      }
      return input;
    case LogicalKind::kJoin:
      return estimate_join(static_cast<const JoinOp&>(op));
    case LogicalKind::kAggregate: {
      const auto& aggregate = static_cast<const AggregateOp&>(op);
      if (aggregate.groups.empty()) return 1;
      double groups = 1;
      for (const AggregateOp::Group& group : aggregate.groups) {
        double distinct = distinct_values(*group.expr, input);
        groups = std::min(groups * distinct, input);
        const Expr& expr = strip_numeric_casts(*group.expr);
        const ColumnEstimate* source =
            expr.kind == ExprKind::kColumn ? column(expr.column) : nullptr;
        ColumnEstimate estimate = source ? *source : ColumnEstimate{};
        estimate.distinct = distinct;
        columns_[group.id] = estimate;
      }
      return groups;
    }
    case LogicalKind::kSort: {
      const auto& sort = static_cast<const SortOp&>(op);
      double rows = std::max(0.0, input - static_cast<double>(sort.offset));
      return sort.limit ? std::min(rows, static_cast<double>(*sort.limit)) : rows;
    }
    case LogicalKind::kLimit: {
      const auto& limit = static_cast<const LimitOp&>(op);
      double rows = std::max(0.0, input - static_cast<double>(limit.offset));
      return limit.limit ? std::min(rows, static_cast<double>(*limit.limit)) : rows;
    }
    case LogicalKind::kValues:
      return static_cast<double>(static_cast<const ValuesOp&>(op).rows.size());
    case LogicalKind::kWindow:
      return input;
    case LogicalKind::kUnionAll: {
      double rows = 0;
      for (const LogicalOpPtr& child : op.children) rows += child->estimated_rows;
      return rows;
    }
    case LogicalKind::kRepeat:
      return input;
    case LogicalKind::kSeries:
      return series_rows(static_cast<const SeriesOp&>(op));
    case LogicalKind::kTableFunction:
      return input * kRowsPerTableFunctionCall;
  }
  return input;
}

}  // namespace floe::plan
