#include "engine/plan/dependent_join.h"

#include <array>
#include <map>

#include "engine/plan/correlation.h"
#include "engine/plan/expression_utils.h"
#include "engine/plan/logical_walk.h"
#include "runtime/function_registry.h"
#include "runtime/functions/function_families.h"
#include "runtime/table_function.h"
#include "storage/error.h"
#include "storage/stack_depth.h"

namespace floe::plan {

namespace {

// Outer column -> the column holding its value in a rewritten plan.
using Mapping = std::map<ColumnId, ColumnId>;

ExprPtr make_binary(ExprKind kind, SqlType type, ExprPtr left, ExprPtr right) {
  std::vector<ExprPtr> operands;
  operands.push_back(std::move(left));
  operands.push_back(std::move(right));
  return make_expr(kind, type, std::move(operands));
}

ExprPtr make_compare(CompareOp op, ExprPtr left, ExprPtr right) {
  ExprPtr compare =
      make_binary(ExprKind::kCompare, SqlType::boolean(), std::move(left), std::move(right));
  compare->compare_op = op;
  return compare;
}

ExprPtr null_flag(ExprPtr operand) {
  std::vector<ExprPtr> operands;
  operands.push_back(std::move(operand));
  ExprPtr is_null = make_expr(ExprKind::kIsNull, SqlType::boolean(), std::move(operands));
  is_null->nullable = false;
  return is_null;
}

ExprPtr make_bigint(int64_t value) {
  return make_constant(Value::big_int(value));
}

LogicalOpPtr make_filter_op(LogicalOpPtr input, ExprPtr predicate) {
  auto filter = std::make_unique<FilterOp>();
  filter->estimated_rows = input->estimated_rows;
  filter->predicate = std::move(predicate);
  filter->children.push_back(std::move(input));
  return filter;
}

class Decorrelator {
 public:
  Decorrelator(const LogicalOp& outer_input, ColumnSet outer, ColumnRegistry& registry)
      : outer_input_(outer_input), outer_(std::move(outer)), registry_(registry) {}

  // D ⋈dep op, for an `op` that reads outer columns: `mapping` receives where the result
  // holds each outer column.
  LogicalOpPtr push(LogicalOpPtr op, Mapping& mapping);

 private:
  bool reads_outer(LogicalOp& op) const { return intersects(free_columns(op), outer_); }
  bool reads_outer(const Expr& expr) const { return intersects(columns_of(expr), outer_); }
  LogicalOpPtr push_or_cross(LogicalOpPtr op, Mapping& mapping);
  LogicalOpPtr domain(Mapping& mapping);
  void substitute(ExprPtr& expr, const Mapping& mapping) const;
  void substitute_all(LogicalOp& op, const Mapping& mapping) const;
  std::vector<ColumnId> in_outer_order(const Mapping& mapping) const;
  LogicalOpPtr push_scan(LogicalOpPtr op, Mapping& mapping);
  LogicalOpPtr push_join(LogicalOpPtr op, Mapping& mapping);
  LogicalOpPtr push_aggregate(LogicalOpPtr op, Mapping& mapping);
  LogicalOpPtr push_window(LogicalOpPtr op, Mapping& mapping);
  LogicalOpPtr push_limit(LogicalOpPtr op, Mapping& mapping);
  LogicalOpPtr push_union(LogicalOpPtr op, Mapping& mapping);
  LogicalOpPtr push_series(LogicalOpPtr op, Mapping& mapping);
  LogicalOpPtr number_rows(LogicalOpPtr input, const Mapping& mapping, std::vector<SortKey> order,
                           ColumnId& row_number);

  const LogicalOp& outer_input_;
  ColumnSet outer_;
  ColumnRegistry& registry_;
};

// The domain D: the distinct values of the outer columns, from a copy of the outer input
// (plans are trees, so each use computes its own copy).
LogicalOpPtr Decorrelator::domain(Mapping& mapping) {
  std::map<ColumnId, ColumnId> renamed;
  LogicalOpPtr copy = clone_with_fresh_columns(outer_input_, registry_, renamed);
  auto distinct = std::make_unique<AggregateOp>();
  distinct->estimated_rows = copy->estimated_rows;
  for (ColumnId column : outer_) {
    const ColumnInfo info = registry_[column];
    ColumnId value = registry_.add(info);
    distinct->groups.push_back({value, make_column(renamed.at(column), info.type, info.nullable)});
    mapping[column] = value;
  }
  distinct->children.push_back(std::move(copy));
  return distinct;
}

LogicalOpPtr Decorrelator::push_or_cross(LogicalOpPtr op, Mapping& mapping) {
  if (reads_outer(*op)) return push(std::move(op), mapping);
  // One row without columns (the input of a table function with LATERAL arguments): D itself.
  if (op->kind == LogicalKind::kValues && static_cast<ValuesOp&>(*op).columns.empty() &&
      static_cast<ValuesOp&>(*op).rows.size() == 1)
    return domain(mapping);
  auto cross = std::make_unique<JoinOp>();
  cross->estimated_rows = op->estimated_rows;
  cross->children.push_back(std::move(op));
  cross->children.push_back(domain(mapping));
  return cross;
}

void Decorrelator::substitute(ExprPtr& expr, const Mapping& mapping) const {
  transform_expr(expr, [&](ExprPtr& node) {
    if (node->kind != ExprKind::kColumn) return;
    auto found = mapping.find(node->column);
    if (found != mapping.end()) node->column = found->second;
  });
}

void Decorrelator::substitute_all(LogicalOp& op, const Mapping& mapping) const {
  for_each_expression(op, [&](ExprPtr& expr) { substitute(expr, mapping); });
}

std::vector<ColumnId> Decorrelator::in_outer_order(const Mapping& mapping) const {
  std::vector<ColumnId> columns;
  for (ColumnId column : outer_) columns.push_back(mapping.at(column));
  return columns;
}

LogicalOpPtr Decorrelator::push(LogicalOpPtr op, Mapping& mapping) {
  check_stack_depth();
  switch (op->kind) {
    case LogicalKind::kScan:
      return push_scan(std::move(op), mapping);
    case LogicalKind::kFilter:
    case LogicalKind::kMap:
    case LogicalKind::kRepeat:
    case LogicalKind::kTableFunction:
      op->children[0] = push_or_cross(std::move(op->children[0]), mapping);
      substitute_all(*op, mapping);
      return op;
    case LogicalKind::kJoin:
      return push_join(std::move(op), mapping);
    case LogicalKind::kAggregate:
      return push_aggregate(std::move(op), mapping);
    case LogicalKind::kWindow:
      return push_window(std::move(op), mapping);
    case LogicalKind::kSort:
    case LogicalKind::kLimit:
      return push_limit(std::move(op), mapping);
    case LogicalKind::kUnionAll:
      return push_union(std::move(op), mapping);
    case LogicalKind::kValues:
      throw NotSupported("VALUES reading columns of an enclosing query");
    case LogicalKind::kSeries:
      return push_series(std::move(op), mapping);
  }
  throw NotSupported("this correlated subquery");
}

// Correlated scan filters move into a filter above the scan.
LogicalOpPtr Decorrelator::push_scan(LogicalOpPtr op, Mapping& mapping) {
  auto& scan = static_cast<ScanOp&>(*op);
  std::vector<ExprPtr> kept, correlated;
  for (ExprPtr& filter : scan.filters)
    (reads_outer(*filter) ? correlated : kept).push_back(std::move(filter));
  scan.filters = std::move(kept);
  return push(make_filter_op(std::move(op), make_conjunction(std::move(correlated))), mapping);
}

LogicalOpPtr Decorrelator::push_join(LogicalOpPtr op, Mapping& mapping) {
  auto& join = static_cast<JoinOp&>(*op);
  const bool left = reads_outer(*join.children[0]);
  const bool right = reads_outer(*join.children[1]);
  const bool keeps_build = join.type == JoinType::kRightOuter ||
                           join.type == JoinType::kFullOuter || join.type == JoinType::kRightSemi ||
                           join.type == JoinType::kRightAnti;
  // Only one side gets D: a key whose other side reads outer columns becomes a residual
  // conjunct, where both sides' columns are visible.
  auto keys_to_residual = [&](bool probe_side) {
    std::vector<JoinOp::KeyPair> kept;
    std::vector<ExprPtr> conjuncts;
    if (join.residual) conjuncts.push_back(std::move(join.residual));
    for (JoinOp::KeyPair& key : join.keys) {
      if (!reads_outer(probe_side ? *key.probe : *key.build)) {
        kept.push_back(std::move(key));
        continue;
      }
      if (join.type == JoinType::kNullAwareAnti)
        throw NotSupported("NOT IN with a left side from an enclosing query");
      conjuncts.push_back(
          make_compare(CompareOp::kEqual, std::move(key.probe), std::move(key.build)));
    }
    join.keys = std::move(kept);
    join.residual = make_conjunction(std::move(conjuncts));
  };
  if (!right && !keeps_build) {
    keys_to_residual(false);
    join.children[0] = push_or_cross(std::move(join.children[0]), mapping);
    substitute_all(join, mapping);
    return op;
  }
  if (!left && join.type == JoinType::kInner) {
    keys_to_residual(true);
    join.children[1] = push(std::move(join.children[1]), mapping);
    substitute_all(join, mapping);
    return op;
  }
  if (join.type == JoinType::kNullAwareAnti)
    throw NotSupported("NOT IN subqueries reading columns of an enclosing query");
  // Both sides get D and match on it as well.
  Mapping probe, build;
  join.children[0] = push_or_cross(std::move(join.children[0]), probe);
  join.children[1] = push_or_cross(std::move(join.children[1]), build);
  for (JoinOp::KeyPair& key : join.keys) {
    substitute(key.probe, probe);
    substitute(key.build, build);
  }
  if (join.residual) substitute(join.residual, keeps_build ? build : probe);
  add_not_distinct_keys(join, in_outer_order(probe), in_outer_order(build), registry_);
  mark_null_extended(join, registry_);
  mapping = keeps_build ? build : probe;
  if (join.type != JoinType::kFullOuter) return op;
  // A FULL join's row from one side alone has NULLs for the other side's copy of D: its
  // domain value is the present side's.
  auto present = std::make_unique<MapOp>();
  present->estimated_rows = op->estimated_rows;
  for (ColumnId column : outer_) {
    const ColumnInfo info = registry_[column];
    std::vector<ExprPtr> sides;
    sides.push_back(make_column(probe.at(column), info.type, true));
    sides.push_back(make_column(build.at(column), info.type, true));
    ColumnId value = registry_.add(info);
    present->computed.push_back(
        {value, make_expr(ExprKind::kCoalesce, info.type, std::move(sides))});
    mapping[column] = value;
  }
  present->children.push_back(std::move(op));
  return present;
}

LogicalOpPtr Decorrelator::push_aggregate(LogicalOpPtr op, Mapping& mapping) {
  auto& aggregate = static_cast<AggregateOp&>(*op);
  if (!aggregate.initial_groups.empty())
    throw NotSupported("GROUPING SETS in a subquery reading columns of an enclosing query");
  const bool scalar = aggregate.groups.empty();
  Mapping input;
  aggregate.children[0] = push_or_cross(std::move(aggregate.children[0]), input);
  substitute_all(aggregate, input);
  Mapping grouped;
  for (ColumnId column : outer_) {
    const ColumnInfo info = registry_[column];
    ColumnId group = registry_.add(info);
    aggregate.groups.push_back({group, make_column(input.at(column), info.type, info.nullable)});
    grouped[column] = group;
  }
  if (!scalar) {
    mapping = std::move(grouped);
    return op;
  }
  // Without GROUP BY: one row per domain value, also for those without input rows.
  auto join = std::make_unique<JoinOp>();
  join->type = JoinType::kLeftOuter;
  join->children.push_back(domain(mapping));
  join->estimated_rows = join->children[0]->estimated_rows;
  add_not_distinct_keys(*join, in_outer_order(mapping), in_outer_order(grouped), registry_);
  join->children.push_back(std::move(op));
  mark_null_extended(*join, registry_);
  return zero_missing_counts(std::move(join), aggregate, registry_);
}

LogicalOpPtr Decorrelator::push_window(LogicalOpPtr op, Mapping& mapping) {
  auto& window = static_cast<WindowOp&>(*op);
  window.children[0] = push_or_cross(std::move(window.children[0]), mapping);
  substitute_all(window, mapping);
  for (ColumnId column : outer_) {
    const ColumnInfo& info = registry_[mapping.at(column)];
    window.partitions.push_back(make_column(mapping.at(column), info.type, info.nullable));
  }
  return op;
}

// LIMIT / OFFSET per domain value: row_number() over the domain value's partition, ordered
// by the sort below the limit, filtered to (offset, offset + limit]. A sort without a limit
// orders nothing a subquery's user sees, so it is dropped.
LogicalOpPtr Decorrelator::push_limit(LogicalOpPtr op, Mapping& mapping) {
  std::optional<uint64_t> limit;
  uint64_t offset = 0;
  std::vector<SortKey> order;
  LogicalOpPtr input = std::move(op->children[0]);
  if (op->kind == LogicalKind::kSort) {
    auto& sort = static_cast<SortOp&>(*op);
    order = std::move(sort.keys);
    limit = sort.limit;
    offset = sort.offset;
  } else {
    auto& limit_op = static_cast<LimitOp&>(*op);
    limit = limit_op.limit;
    offset = limit_op.offset;
    if (input->kind == LogicalKind::kSort && !static_cast<SortOp&>(*input).limit &&
        static_cast<SortOp&>(*input).offset == 0) {
      order = std::move(static_cast<SortOp&>(*input).keys);
      input = std::move(input->children[0]);
    }
  }
  input = push_or_cross(std::move(input), mapping);
  if (!limit && offset == 0) return input;
  for (SortKey& key : order) substitute(key.expr, mapping);
  ColumnId row_number = 0;
  LogicalOpPtr window = number_rows(std::move(input), mapping, std::move(order), row_number);
  std::vector<ExprPtr> bounds;
  auto number = [&] { return make_column(row_number, SqlType::big_int(), false); };
  if (offset > 0)
    bounds.push_back(
        make_compare(CompareOp::kGreater, number(), make_bigint(static_cast<int64_t>(offset))));
  if (limit)
    bounds.push_back(make_compare(CompareOp::kLessEqual, number(),
                                  make_bigint(static_cast<int64_t>(offset + *limit))));
  return make_filter_op(std::move(window), make_conjunction(std::move(bounds)));
}

// row_number() over the rows of each domain value, in `order`.
LogicalOpPtr Decorrelator::number_rows(LogicalOpPtr input, const Mapping& mapping,
                                       std::vector<SortKey> order, ColumnId& row_number) {
  auto window = std::make_unique<WindowOp>();
  window->estimated_rows = input->estimated_rows;
  for (ColumnId column : outer_) {
    const ColumnInfo& info = registry_[mapping.at(column)];
    window->partitions.push_back(make_column(mapping.at(column), info.type, info.nullable));
  }
  window->order = std::move(order);
  row_number = registry_.add({SqlType::big_int(), false, "row_number"});
  WindowOp::Function function{};
  function.id = row_number;
  function.kind = WindowFunctionKind::kRowNumber;
  window->functions.push_back(std::move(function));
  window->children.push_back(std::move(input));
  return window;
}

// A generate_series whose arguments read outer columns (LATERAL): the table function of the
// series' type, called once per domain value (runtime/functions/series_functions.cpp).
LogicalOpPtr Decorrelator::push_series(LogicalOpPtr op, Mapping& mapping) {
  auto& series = static_cast<SeriesOp&>(*op);
  const TypeId type = registry_[series.column].type.id;
  auto call = std::make_unique<TableFunctionOp>();
  for (const TableFunction& overload : table_functions().overloads("generate_series"))
    if (overload.parameters[0] == type) call->function = &overload;
  call->arguments.push_back(std::move(series.start));
  call->arguments.push_back(std::move(series.stop));
  call->arguments.push_back(std::move(series.step));
  call->column = series.column;
  call->ordinality = series.ordinality;
  call->estimated_rows = series.estimated_rows;
  auto one_row = std::make_unique<ValuesOp>();
  one_row->rows.emplace_back();
  one_row->estimated_rows = 1;
  call->children.push_back(std::move(one_row));
  return push(std::move(call), mapping);
}

LogicalOpPtr Decorrelator::push_union(LogicalOpPtr op, Mapping& mapping) {
  auto& union_all = static_cast<UnionAllOp&>(*op);
  std::vector<Mapping> branches(union_all.children.size());
  for (size_t i = 0; i < union_all.children.size(); ++i)
    union_all.children[i] = push_or_cross(std::move(union_all.children[i]), branches[i]);
  for (ColumnId column : outer_) {
    const ColumnInfo info = registry_[column];
    ColumnId value = registry_.add(info);
    union_all.columns.push_back(value);
    for (size_t i = 0; i < branches.size(); ++i)
      union_all.inputs[i].push_back(make_column(branches[i].at(column), info.type, info.nullable));
    mapping[column] = value;
  }
  return op;
}

// A value of `type` that stands for NULL in a key (any value does: the IS NULL key tells
// it apart from a real one).
Value zero_of(const SqlType& type) {
  std::array<unsigned char, 32> zeros{};
  return Value::read_physical(zeros.data(), type);
}

ExprPtr null_as_zero(ExprPtr operand) {
  const SqlType type = operand->type;
  std::vector<ExprPtr> operands;
  operands.push_back(std::move(operand));
  operands.push_back(make_constant(zero_of(type)));
  ExprPtr coalesced = make_expr(ExprKind::kCoalesce, type, std::move(operands));
  coalesced->nullable = false;
  return coalesced;
}

}  // namespace

DecorrelatedSubquery decorrelate(LogicalOpPtr subquery, const LogicalOp& outer_input,
                                 ColumnRegistry& registry) {
  ColumnSet outer;
  ColumnSet free = free_columns(*subquery);
  for (ColumnId column : output_columns(outer_input))
    if (free.count(column)) outer.insert(column);
  DecorrelatedSubquery result;
  if (outer.empty()) {  // correlated only with queries further out
    result.plan = std::move(subquery);
    return result;
  }
  Decorrelator decorrelator(outer_input, outer, registry);
  Mapping mapping;
  result.plan = decorrelator.push(std::move(subquery), mapping);
  for (ColumnId column : outer) {
    result.outer.push_back(column);
    result.domain.push_back(mapping.at(column));
  }
  return result;
}

void add_not_distinct_keys(JoinOp& join, const std::vector<ColumnId>& probe,
                           const std::vector<ColumnId>& build, const ColumnRegistry& registry) {
  for (size_t i = 0; i < probe.size(); ++i) {
    const ColumnInfo& probe_info = registry[probe[i]];
    const ColumnInfo& build_info = registry[build[i]];
    ExprPtr probe_value = make_column(probe[i], probe_info.type, probe_info.nullable);
    ExprPtr build_value = make_column(build[i], build_info.type, build_info.nullable);
    if (!probe_info.nullable && !build_info.nullable) {
      join.keys.push_back({std::move(probe_value), std::move(build_value)});
      continue;
    }
    join.keys.push_back({null_flag(probe_value->clone()), null_flag(build_value->clone())});
    join.keys.push_back(
        {null_as_zero(std::move(probe_value)), null_as_zero(std::move(build_value))});
  }
}

void mark_null_extended(const JoinOp& join, ColumnRegistry& registry) {
  auto mark = [&](const LogicalOp& side) {
    for (ColumnId column : output_columns(side)) registry[column].nullable = true;
  };
  if (join.type == JoinType::kLeftOuter || join.type == JoinType::kFullOuter)
    mark(*join.children[1]);
  if (join.type == JoinType::kRightOuter || join.type == JoinType::kFullOuter)
    mark(*join.children[0]);
}

LogicalOpPtr zero_missing_counts(LogicalOpPtr joined, AggregateOp& aggregate,
                                 ColumnRegistry& registry) {
  auto count_fix = std::make_unique<MapOp>();
  for (auto& call : aggregate.aggregates) {
    if (call.function != AggregateFunction::kCount &&
        call.function != AggregateFunction::kCountStar)
      continue;
    const ColumnInfo info = registry[call.id];
    ColumnId joined_count = registry.add({info.type, true, info.name});
    std::vector<ExprPtr> arguments;
    arguments.push_back(make_column(joined_count, info.type, true));
    arguments.push_back(make_constant(cast_value(Value::big_int(0), info.type)));
    ExprPtr zero_if_null = make_expr(ExprKind::kCoalesce, info.type, std::move(arguments));
    zero_if_null->nullable = false;
    registry[call.id].nullable = false;
    count_fix->computed.push_back({call.id, std::move(zero_if_null)});
    call.id = joined_count;
  }
  if (count_fix->computed.empty()) return joined;
  count_fix->estimated_rows = joined->estimated_rows;
  count_fix->children.push_back(std::move(joined));
  return count_fix;
}

bool returns_one_row(const LogicalOp& subquery) {
  const LogicalOp* op = &subquery;
  while (op->kind == LogicalKind::kMap) op = op->children[0].get();
  return op->kind == LogicalKind::kAggregate &&
         static_cast<const AggregateOp*>(op)->groups.empty() &&
         static_cast<const AggregateOp*>(op)->initial_groups.empty();
}

bool at_most_one_row(const LogicalOp& subquery) {
  const LogicalOp* op = &subquery;
  while (op->kind == LogicalKind::kMap) op = op->children[0].get();
  std::optional<uint64_t> limit;
  if (op->kind == LogicalKind::kLimit) limit = static_cast<const LimitOp*>(op)->limit;
  if (op->kind == LogicalKind::kSort) limit = static_cast<const SortOp*>(op)->limit;
  return (limit && *limit <= 1) || returns_one_row(*op);
}

LogicalOpPtr check_single_row(LogicalOpPtr plan, const std::vector<ColumnId>& domain,
                              ColumnRegistry& registry) {
  auto window = std::make_unique<WindowOp>();
  window->estimated_rows = plan->estimated_rows;
  for (ColumnId column : domain) {
    const ColumnInfo& info = registry[column];
    window->partitions.push_back(make_column(column, info.type, info.nullable));
  }
  const ColumnId rows = registry.add({SqlType::big_int(), false, "count"});
  WindowOp::Function count{};
  count.id = rows;
  count.kind = WindowFunctionKind::kAggregate;
  count.aggregate = AggregateFunction::kCountStar;
  window->functions.push_back(std::move(count));
  window->children.push_back(std::move(plan));
  std::vector<ExprPtr> arguments;
  arguments.push_back(make_column(rows, SqlType::big_int(), false));
  ExprPtr check = make_expr(ExprKind::kFunction, SqlType::boolean(), std::move(arguments));
  check->function = &function_registry().internal(kSingleRowFunction);
  return make_filter_op(std::move(window), std::move(check));
}

}  // namespace floe::plan
