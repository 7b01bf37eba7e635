#include "engine/plan/logical_plan.h"

#include <algorithm>
#include <cmath>
#include <sstream>
#include <utility>

#include "engine/plan/expression_utils.h"
#include "engine/plan/optimizer.h"
#include "runtime/table_function.h"
#include "storage/stack_depth.h"

namespace floe::plan {

SqlType avg_sum_type(const SqlType& argument) {
  if (argument.id == TypeId::kDouble) return SqlType::double_type();
  return SqlType::decimal(kMaxDecimalPrecision,
                          argument.id == TypeId::kDecimal ? argument.scale : 0);
}

bool combines_with_itself(AggregateFunction function) {
  return function == AggregateFunction::kSum || function == AggregateFunction::kMin ||
         function == AggregateFunction::kMax || function == AggregateFunction::kBoolAnd ||
         function == AggregateFunction::kBoolOr;
}

bool is_collected(AggregateFunction function) {
  return function == AggregateFunction::kStringAgg ||
         function == AggregateFunction::kPercentileCont ||
         function == AggregateFunction::kPercentileDisc || function == AggregateFunction::kMode;
}

AggregateOp::Aggregate AggregateOp::Aggregate::clone() const {
  auto copy = [](const ExprPtr& expr) { return expr ? expr->clone() : nullptr; };
  return {id,          function,   copy(argument), distinct, copy(parameter),
          copy(order), descending, nulls_first};
}

bool AggregateOp::Aggregate::same_as(const Aggregate& other) const {
  auto equal = [](const ExprPtr& a, const ExprPtr& b) { return a ? b && expr_equal(*a, *b) : !b; };
  return function == other.function && distinct == other.distinct &&
         equal(argument, other.argument) && equal(parameter, other.parameter) &&
         equal(order, other.order) && descending == other.descending &&
         nulls_first == other.nulls_first;
}

std::vector<ColumnId> output_columns(const LogicalOp& op) {
  check_stack_depth();
  std::vector<ColumnId> out;
  switch (op.kind) {
    case LogicalKind::kScan:
      for (const auto& column : static_cast<const ScanOp&>(op).columns) out.push_back(column.id);
      break;
    case LogicalKind::kFilter:
    case LogicalKind::kSort:
    case LogicalKind::kLimit:
    case LogicalKind::kRepeat:
      out = output_columns(*op.children[0]);
      break;
    case LogicalKind::kMap:
      out = output_columns(*op.children[0]);
      for (const auto& computed : static_cast<const MapOp&>(op).computed)
        out.push_back(computed.id);
      break;
    case LogicalKind::kJoin: {
      JoinType type = static_cast<const JoinOp&>(op).type;
      if (join_outputs_probe(type)) out = output_columns(*op.children[0]);
      if (type == JoinType::kMark) out.push_back(static_cast<const JoinOp&>(op).mark);
      if (!join_outputs_build(type)) break;
      std::vector<ColumnId> build = output_columns(*op.children[1]);
      out.insert(out.end(), build.begin(), build.end());
      break;
    }
    case LogicalKind::kAggregate: {
      const auto& aggregate = static_cast<const AggregateOp&>(op);
      for (const auto& group : aggregate.groups) out.push_back(group.id);
      for (const auto& call : aggregate.aggregates) out.push_back(call.id);
      break;
    }
    case LogicalKind::kValues:
      out = static_cast<const ValuesOp&>(op).columns;
      break;
    case LogicalKind::kWindow:
      out = output_columns(*op.children[0]);
      for (const auto& function : static_cast<const WindowOp&>(op).functions)
        out.push_back(function.id);
      break;
    case LogicalKind::kUnionAll:
      out = static_cast<const UnionAllOp&>(op).columns;
      break;
    case LogicalKind::kSeries:
      out.push_back(static_cast<const SeriesOp&>(op).column);
      if (auto ordinality = static_cast<const SeriesOp&>(op).ordinality) out.push_back(*ordinality);
      break;
    case LogicalKind::kTableFunction: {
      const auto& call = static_cast<const TableFunctionOp&>(op);
      out = output_columns(*op.children[0]);
      out.push_back(call.column);
      if (call.ordinality) out.push_back(*call.ordinality);
      break;
    }
  }
  return out;
}

bool join_outputs_probe(JoinType type) {
  return type != JoinType::kRightSemi && type != JoinType::kRightAnti;
}

bool join_outputs_build(JoinType type) {
  return type == JoinType::kInner || type == JoinType::kLeftOuter ||
         type == JoinType::kRightOuter || type == JoinType::kFullOuter ||
         type == JoinType::kRightSemi || type == JoinType::kRightAnti;
}

bool join_preserves_build(JoinType type) {
  return type == JoinType::kRightOuter || type == JoinType::kFullOuter ||
         type == JoinType::kRightSemi || type == JoinType::kRightAnti;
}

namespace {

// Inner joins print as plain "HashJoin".
std::string join_type_suffix(JoinType type) {
  switch (type) {
    case JoinType::kInner:
      return "";
    case JoinType::kLeftOuter:
      return " left";
    case JoinType::kRightOuter:
      return " right";
    case JoinType::kFullOuter:
      return " full";
    case JoinType::kSemi:
      return " semi";
    case JoinType::kAnti:
      return " anti";
    case JoinType::kNullAwareAnti:
      return " null-aware anti";
    case JoinType::kRightSemi:
      return " right semi";
    case JoinType::kRightAnti:
      return " right anti";
    case JoinType::kMark:
      return " mark";
  }
  return " ?";
}

const char* aggregate_name(AggregateFunction function) {
  switch (function) {
    case AggregateFunction::kCountStar:
      return "count_star";
    case AggregateFunction::kCount:
      return "count";
    case AggregateFunction::kSum:
      return "sum";
    case AggregateFunction::kAvg:
      return "avg";
    case AggregateFunction::kMin:
      return "min";
    case AggregateFunction::kMax:
      return "max";
    case AggregateFunction::kBoolAnd:
      return "bool_and";
    case AggregateFunction::kBoolOr:
      return "bool_or";
    case AggregateFunction::kVarSamp:
      return "var_samp";
    case AggregateFunction::kVarPop:
      return "var_pop";
    case AggregateFunction::kStddevSamp:
      return "stddev_samp";
    case AggregateFunction::kStddevPop:
      return "stddev_pop";
    case AggregateFunction::kStringAgg:
      return "string_agg";
    case AggregateFunction::kPercentileCont:
      return "percentile_cont";
    case AggregateFunction::kPercentileDisc:
      return "percentile_disc";
    case AggregateFunction::kMode:
      return "mode";
  }
  return "?";
}

const char* frame_bound_text(WindowFrame::Bound bound) {
  switch (bound) {
    case WindowFrame::Bound::kUnboundedPreceding:
      return "UNBOUNDED PRECEDING";
    case WindowFrame::Bound::kPreceding:
      return " PRECEDING";
    case WindowFrame::Bound::kCurrentRow:
      return "CURRENT ROW";
    case WindowFrame::Bound::kFollowing:
      return " FOLLOWING";
    case WindowFrame::Bound::kUnboundedFollowing:
      return "UNBOUNDED FOLLOWING";
  }
  return "?";
}

// RANGE offsets show as the current row's bound: "RANGE BETWEEN (k - 2) PRECEDING AND ...".
std::string frame_text(const WindowOp::Function& function, const ColumnRegistry& registry) {
  const WindowFrame& frame = function.frame;
  auto bound = [&](WindowFrame::Bound kind, uint64_t offset, const ExprPtr& range) {
    bool with_offset =
        kind == WindowFrame::Bound::kPreceding || kind == WindowFrame::Bound::kFollowing;
    std::string amount;
    if (with_offset)
      amount = range ? "(" + range->to_string(&registry) + ")" : std::to_string(offset);
    return amount + frame_bound_text(kind);
  };
  static constexpr const char* kUnits[] = {"ROWS", "RANGE", "GROUPS"};
  static constexpr const char* kExclusions[] = {"", " EXCLUDE CURRENT ROW", " EXCLUDE GROUP",
                                                " EXCLUDE TIES"};
  return std::string(kUnits[static_cast<int>(frame.unit)]) + " BETWEEN " +
         bound(frame.start, frame.start_offset, function.start_bound) + " AND " +
         bound(frame.end, frame.end_offset, function.end_bound) +
         kExclusions[static_cast<int>(frame.exclusion)];
}

std::string limit_text(const std::optional<uint64_t>& limit, uint64_t offset) {
  std::string out;
  if (limit) out += " limit=" + std::to_string(*limit);
  if (offset) out += " offset=" + std::to_string(offset);
  return out;
}

class PlanPrinter {
 public:
  explicit PlanPrinter(const ColumnRegistry& registry, OperatorAnnotation annotate = {})
      : registry_(registry), annotate_(std::move(annotate)) {}

  void print(const LogicalOp& op, int depth) {
    check_stack_depth();
    out_ << std::string(static_cast<size_t>(depth) * 2, ' ') << describe(op);
    if (annotate_) out_ << annotate_(op);
    out_ << "\n";
    for (const auto& child : op.children) print(*child, depth + 1);
  }

  std::string text() const { return out_.str(); }

  // The operator and, once the optimizer estimated it, its estimated row count.
  std::string describe(const LogicalOp& op) const {
    std::string out = describe_operator_only(op);
    if (op.estimated_rows > 0)
      out += " (est. rows " + std::to_string(std::llround(op.estimated_rows)) + ")";
    return out;
  }

 private:
  std::string describe_operator_only(const LogicalOp& op) const {
    switch (op.kind) {
      case LogicalKind::kScan: {
        const auto& scan = static_cast<const ScanOp&>(op);
        std::string out = "Scan " + scan.table->name();
        if (scan.index)
          out = "Index Scan using " + scan.index->lookup.index->constraint().name + " on " +
                scan.table->name();
        if (scan.index_join)
          out = "Index Scan using " + scan.index_join->index->constraint().name + " on " +
                scan.table->name();
        if (!scan.alias.empty() && scan.alias != scan.table->name()) out += " AS " + scan.alias;
        out += " [";
        for (size_t i = 0; i < scan.columns.size(); ++i)
          out += (i ? ", " : "") + column(scan.columns[i].id);
        out += "]";
        // An index scan's condition in key order; the scan applies it again with the other
        // restrictions.
        const std::vector<size_t> condition =
            scan.index ? scan.index->condition : std::vector<size_t>{};
        std::string index_condition, restrictions;
        for (size_t i : condition)
          index_condition += (index_condition.empty() ? "" : ", ") +
                             scan.restrictions[i].predicate->to_string(&registry_);
        for (size_t i = 0; i < scan.restrictions.size(); ++i) {
          if (std::find(condition.begin(), condition.end(), i) != condition.end()) continue;
          restrictions += (restrictions.empty() ? "" : ", ") +
                          scan.restrictions[i].predicate->to_string(&registry_);
        }
        if (!index_condition.empty()) out += " index_condition=[" + index_condition + "]";
        if (!restrictions.empty()) out += " restrictions=[" + restrictions + "]";
        if (!scan.filters.empty()) out += " filters=" + list(scan.filters);
        return out;
      }
      case LogicalKind::kFilter:
        return "Filter " + static_cast<const FilterOp&>(op).predicate->to_string(&registry_);
      case LogicalKind::kMap: {
        std::string out = "Map [";
        const auto& map = static_cast<const MapOp&>(op);
        for (size_t i = 0; i < map.computed.size(); ++i)
          out += (i ? ", " : "") + column(map.computed[i].id) +
                 " := " + map.computed[i].expr->to_string(&registry_);
        return out + "]";
      }
      case LogicalKind::kJoin: {
        const auto& join = static_cast<const JoinOp&>(op);
        // An index nested-loop join names the index its probe scan looks the keys up in.
        const ScanOp* index_scan = index_join_scan(join);
        std::string out = index_scan
                              ? "Index Nested Loop Join" + join_type_suffix(join.type) + " using " +
                                    index_scan->index_join->index->constraint().name + " ["
                              : "HashJoin" + join_type_suffix(join.type) + " [";
        for (size_t i = 0; i < join.keys.size(); ++i)
          out += (i ? ", " : "") + join.keys[i].probe->to_string(&registry_) + " = " +
                 join.keys[i].build->to_string(&registry_);
        out += "]";
        if (join.residual) out += " residual=" + join.residual->to_string(&registry_);
        if (join.type == JoinType::kMark) {
          if (join.mark_condition)
            out += " condition=" + join.mark_condition->to_string(&registry_);
          out += " mark=" + column(join.mark);
        }
        return out;
      }
      case LogicalKind::kAggregate: {
        const auto& aggregate = static_cast<const AggregateOp&>(op);
        std::string out = "Aggregate groups=[";
        for (size_t i = 0; i < aggregate.groups.size(); ++i)
          out += (i ? ", " : "") + column(aggregate.groups[i].id) +
                 " := " + aggregate.groups[i].expr->to_string(&registry_);
        out += "] aggregates=[";
        for (size_t i = 0; i < aggregate.aggregates.size(); ++i) {
          const auto& call = aggregate.aggregates[i];
          out += (i ? ", " : "") + column(call.id) + " := " + aggregate_name(call.function) + "(" +
                 (call.distinct ? "DISTINCT " : "") +
                 (call.argument ? call.argument->to_string(&registry_) : "*");
          if (call.parameter) out += ", " + call.parameter->to_string(&registry_);
          if (call.order) out += " ORDER BY " + call.order->to_string(&registry_);
          if (call.descending) out += call.order ? " DESC" : " DESC ORDER";
          out += ")";
        }
        return out + "]";
      }
      case LogicalKind::kSort: {
        const auto& sort = static_cast<const SortOp&>(op);
        std::string out = "Sort [";
        for (size_t i = 0; i < sort.keys.size(); ++i)
          out += (i ? ", " : "") + sort.keys[i].expr->to_string(&registry_) +
                 (sort.keys[i].descending ? " DESC" : " ASC") +
                 (sort.keys[i].nulls_first ? " NULLS FIRST" : " NULLS LAST");
        return out + "]" + limit_text(sort.limit, sort.offset);
      }
      case LogicalKind::kLimit: {
        const auto& limit = static_cast<const LimitOp&>(op);
        return "Limit" + limit_text(limit.limit, limit.offset);
      }
      case LogicalKind::kValues: {
        const auto& values = static_cast<const ValuesOp&>(op);
        return "Values rows=" + std::to_string(values.rows.size());
      }
      case LogicalKind::kWindow: {
        const auto& window = static_cast<const WindowOp&>(op);
        std::string out = "Window partition=" + list(window.partitions) + " order=[";
        for (size_t i = 0; i < window.order.size(); ++i)
          out += (i ? ", " : "") + window.order[i].expr->to_string(&registry_) +
                 (window.order[i].descending ? " DESC" : " ASC");
        out += "] functions=[";
        for (size_t i = 0; i < window.functions.size(); ++i) {
          const auto& function = window.functions[i];
          out += (i ? ", " : "") + column(function.id) + " := " + window_function_name(function) +
                 list(function.arguments) + " " + frame_text(function, registry_);
        }
        return out + "]";
      }
      case LogicalKind::kUnionAll: {
        const auto& union_all = static_cast<const UnionAllOp&>(op);
        std::string out = "UnionAll [";
        for (size_t i = 0; i < union_all.columns.size(); ++i)
          out += (i ? ", " : "") + column(union_all.columns[i]);
        out += "]";
        for (const auto& input : union_all.inputs) out += " " + list(input);
        return out;
      }
      case LogicalKind::kRepeat:
        return "Repeat " + static_cast<const RepeatOp&>(op).count->to_string(&registry_) + " times";
      case LogicalKind::kSeries: {
        const auto& series = static_cast<const SeriesOp&>(op);
        std::string out = "Series " + column(series.column) + " := generate_series(" +
                          series.start->to_string(&registry_) + ", " +
                          series.stop->to_string(&registry_) + ", " +
                          series.step->to_string(&registry_) + ")";
        if (series.ordinality) out += " ordinality " + column(*series.ordinality);
        return out;
      }
      case LogicalKind::kTableFunction: {
        const auto& call = static_cast<const TableFunctionOp&>(op);
        std::string out = "TableFunction " + column(call.column) + " := " + call.function->name +
                          list(call.arguments);
        if (call.ordinality) out += " ordinality " + column(*call.ordinality);
        return out;
      }
    }
    return "?";
  }

  std::string column(ColumnId id) const { return registry_[id].name + "#" + std::to_string(id); }
  std::string list(const std::vector<ExprPtr>& exprs) const {
    std::string out = "[";
    for (size_t i = 0; i < exprs.size(); ++i)
      out += (i ? ", " : "") + exprs[i]->to_string(&registry_);
    return out + "]";
  }

  const ColumnRegistry& registry_;
  OperatorAnnotation annotate_;
  std::ostringstream out_;
};

}  // namespace

std::string window_function_name(const WindowOp::Function& function) {
  switch (function.kind) {
    case WindowFunctionKind::kRowNumber:
      return "row_number";
    case WindowFunctionKind::kRank:
      return "rank";
    case WindowFunctionKind::kDenseRank:
      return "dense_rank";
    case WindowFunctionKind::kPercentRank:
      return "percent_rank";
    case WindowFunctionKind::kCumeDist:
      return "cume_dist";
    case WindowFunctionKind::kNtile:
      return "ntile";
    case WindowFunctionKind::kLag:
      return "lag";
    case WindowFunctionKind::kLead:
      return "lead";
    case WindowFunctionKind::kFirstValue:
      return "first_value";
    case WindowFunctionKind::kLastValue:
      return "last_value";
    case WindowFunctionKind::kNthValue:
      return "nth_value";
    case WindowFunctionKind::kAggregate:
      return aggregate_name(function.aggregate);
  }
  return "?";
}

std::string describe_operator(const LogicalOp& op, const ColumnRegistry& registry) {
  return PlanPrinter(registry).describe(op);
}

std::string to_string(const LogicalPlan& plan, const OperatorAnnotation& annotate) {
  PlanPrinter printer(plan.registry, annotate);
  std::string header = "Output [";
  for (size_t i = 0; i < plan.outputs.size(); ++i)
    header += (i ? ", " : "") + plan.outputs[i].name + "#" + std::to_string(plan.outputs[i].id);
  header += "]\n";
  if (plan.root) printer.print(*plan.root, 1);
  return header + printer.text();
}

}  // namespace floe::plan
