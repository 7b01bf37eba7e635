#include "engine/plan/logical_walk.h"

#include "engine/plan/expression_utils.h"
#include "storage/stack_depth.h"

namespace floe::plan {

void for_each_expression(LogicalOp& op, const ExprVisitor& visit) {
  auto visit_if = [&](ExprPtr& expr) {
    if (expr) visit(expr);
  };
  switch (op.kind) {
    case LogicalKind::kScan:
      for (ExprPtr& filter : static_cast<ScanOp&>(op).filters) visit(filter);
      for (auto& restriction : static_cast<ScanOp&>(op).restrictions) visit(restriction.predicate);
      break;
    case LogicalKind::kFilter:
      visit(static_cast<FilterOp&>(op).predicate);
      break;
    case LogicalKind::kMap:
      for (auto& computed : static_cast<MapOp&>(op).computed) visit(computed.expr);
      break;
    case LogicalKind::kJoin: {
      auto& join = static_cast<JoinOp&>(op);
      for (auto& key : join.keys) {
        visit(key.probe);
        visit(key.build);
      }
      visit_if(join.residual);
      visit_if(join.mark_condition);
      break;
    }
    case LogicalKind::kAggregate: {
      auto& aggregate = static_cast<AggregateOp&>(op);
      for (auto& group : aggregate.groups) visit(group.expr);
      for (auto& call : aggregate.aggregates) {
        visit_if(call.argument);
        visit_if(call.parameter);
        visit_if(call.order);
      }
      break;
    }
    case LogicalKind::kSort:
      for (SortKey& key : static_cast<SortOp&>(op).keys) visit(key.expr);
      break;
    case LogicalKind::kValues:
      for (auto& row : static_cast<ValuesOp&>(op).rows)
        for (ExprPtr& value : row) visit(value);
      break;
    case LogicalKind::kLimit:
      break;
    case LogicalKind::kWindow: {
      auto& window = static_cast<WindowOp&>(op);
      for (ExprPtr& partition : window.partitions) visit(partition);
      for (SortKey& key : window.order) visit(key.expr);
      for (auto& function : window.functions) {
        for (ExprPtr& argument : function.arguments) visit(argument);
        for (ExprPtr* range : {&function.range_key, &function.start_bound, &function.end_bound})
          if (*range) visit(*range);
      }
      break;
    }
    case LogicalKind::kUnionAll:
      for (auto& input : static_cast<UnionAllOp&>(op).inputs)
        for (ExprPtr& value : input) visit(value);
      break;
    case LogicalKind::kRepeat:
      visit(static_cast<RepeatOp&>(op).count);
      break;
    case LogicalKind::kSeries: {
      auto& series = static_cast<SeriesOp&>(op);
      visit(series.start);
      visit(series.stop);
      visit(series.step);
      break;
    }
    case LogicalKind::kTableFunction:
      for (ExprPtr& argument : static_cast<TableFunctionOp&>(op).arguments) visit(argument);
      break;
  }
}

void for_each_expression_in_tree(LogicalOp& root, const ExprVisitor& visit) {
  check_stack_depth();
  for_each_expression(root, visit);
  for (LogicalOpPtr& child : root.children) for_each_expression_in_tree(*child, visit);
}

LogicalOpPtr clone_tree(const LogicalOp& op) {
  check_stack_depth();
  LogicalOpPtr copy;
  auto clone_expr = [](const ExprPtr& expr) { return expr ? expr->clone() : nullptr; };
  switch (op.kind) {
    case LogicalKind::kScan: {
      const auto& scan = static_cast<const ScanOp&>(op);
      auto result = std::make_unique<ScanOp>();
      result->table = scan.table;
      result->alias = scan.alias;
      result->columns = scan.columns;
      for (const ExprPtr& filter : scan.filters) result->filters.push_back(filter->clone());
      for (const auto& restriction : scan.restrictions)
        result->restrictions.push_back({restriction.predicate->clone(), restriction.restriction});
      result->index = scan.index;
      result->index_join = scan.index_join;
      copy = std::move(result);
      break;
    }
    case LogicalKind::kFilter: {
      auto result = std::make_unique<FilterOp>();
      result->predicate = static_cast<const FilterOp&>(op).predicate->clone();
      copy = std::move(result);
      break;
    }
    case LogicalKind::kMap: {
      auto result = std::make_unique<MapOp>();
      for (const auto& computed : static_cast<const MapOp&>(op).computed)
        result->computed.push_back({computed.id, computed.expr->clone()});
      copy = std::move(result);
      break;
    }
    case LogicalKind::kJoin: {
      const auto& join = static_cast<const JoinOp&>(op);
      auto result = std::make_unique<JoinOp>();
      result->type = join.type;
      for (const auto& key : join.keys)
        result->keys.push_back({key.probe->clone(), key.build->clone()});
      result->residual = clone_expr(join.residual);
      result->mark = join.mark;
      result->mark_keys = join.mark_keys;
      result->mark_condition = clone_expr(join.mark_condition);
      copy = std::move(result);
      break;
    }
    case LogicalKind::kAggregate: {
      const auto& aggregate = static_cast<const AggregateOp&>(op);
      auto result = std::make_unique<AggregateOp>();
      for (const auto& group : aggregate.groups)
        result->groups.push_back({group.id, group.expr->clone()});
      for (const auto& call : aggregate.aggregates) result->aggregates.push_back(call.clone());
      result->initial_groups = aggregate.initial_groups;
      copy = std::move(result);
      break;
    }
    case LogicalKind::kSort: {
      const auto& sort = static_cast<const SortOp&>(op);
      auto result = std::make_unique<SortOp>();
      for (const SortKey& key : sort.keys)
        result->keys.push_back({key.expr->clone(), key.descending, key.nulls_first});
      result->limit = sort.limit;
      result->offset = sort.offset;
      copy = std::move(result);
      break;
    }
    case LogicalKind::kLimit: {
      const auto& limit = static_cast<const LimitOp&>(op);
      auto result = std::make_unique<LimitOp>();
      result->limit = limit.limit;
      result->offset = limit.offset;
      copy = std::move(result);
      break;
    }
    case LogicalKind::kValues: {
      const auto& values = static_cast<const ValuesOp&>(op);
      auto result = std::make_unique<ValuesOp>();
      result->columns = values.columns;
      for (const auto& row : values.rows) {
        result->rows.emplace_back();
        for (const ExprPtr& value : row) result->rows.back().push_back(value->clone());
      }
      copy = std::move(result);
      break;
    }
    case LogicalKind::kWindow: {
      const auto& window = static_cast<const WindowOp&>(op);
      auto result = std::make_unique<WindowOp>();
      for (const ExprPtr& partition : window.partitions)
        result->partitions.push_back(partition->clone());
      for (const SortKey& key : window.order)
        result->order.push_back({key.expr->clone(), key.descending, key.nulls_first});
      for (const auto& function : window.functions) {
        std::vector<ExprPtr> arguments;
        for (const ExprPtr& argument : function.arguments) arguments.push_back(argument->clone());
        auto clone = [](const ExprPtr& expr) { return expr ? expr->clone() : nullptr; };
        result->functions.push_back({function.id, function.kind, function.aggregate,
                                     std::move(arguments), function.frame,
                                     clone(function.range_key), clone(function.start_bound),
                                     clone(function.end_bound)});
      }
      copy = std::move(result);
      break;
    }
    case LogicalKind::kUnionAll: {
      const auto& union_all = static_cast<const UnionAllOp&>(op);
      auto result = std::make_unique<UnionAllOp>();
      result->columns = union_all.columns;
      for (const auto& input : union_all.inputs) {
        result->inputs.emplace_back();
        for (const ExprPtr& value : input) result->inputs.back().push_back(value->clone());
      }
      copy = std::move(result);
      break;
    }
    case LogicalKind::kRepeat: {
      auto result = std::make_unique<RepeatOp>();
      result->count = static_cast<const RepeatOp&>(op).count->clone();
      copy = std::move(result);
      break;
    }
    case LogicalKind::kSeries: {
      const auto& series = static_cast<const SeriesOp&>(op);
      auto result = std::make_unique<SeriesOp>();
      result->column = series.column;
      result->ordinality = series.ordinality;
      result->start = series.start->clone();
      result->stop = series.stop->clone();
      result->step = series.step->clone();
      copy = std::move(result);
      break;
    }
    case LogicalKind::kTableFunction: {
      const auto& call = static_cast<const TableFunctionOp&>(op);
      auto result = std::make_unique<TableFunctionOp>();
      result->function = call.function;
      for (const ExprPtr& argument : call.arguments) result->arguments.push_back(argument->clone());
      result->column = call.column;
      result->ordinality = call.ordinality;
      copy = std::move(result);
      break;
    }
  }
  copy->estimated_rows = op.estimated_rows;
  for (const LogicalOpPtr& child : op.children) copy->children.push_back(clone_tree(*child));
  return copy;
}

namespace {

void rename_definitions(LogicalOp& op, ColumnRegistry& registry,
                        std::map<ColumnId, ColumnId>& renamed) {
  check_stack_depth();
  auto fresh = [&](ColumnId& id) {
    ColumnInfo info = registry[id];
    id = renamed[id] = registry.add(std::move(info));
  };
  switch (op.kind) {
    case LogicalKind::kScan:
      for (auto& column : static_cast<ScanOp&>(op).columns) fresh(column.id);
      break;
    case LogicalKind::kMap:
      for (auto& computed : static_cast<MapOp&>(op).computed) fresh(computed.id);
      break;
    case LogicalKind::kAggregate: {
      auto& aggregate = static_cast<AggregateOp&>(op);
      for (auto& group : aggregate.groups) fresh(group.id);
      for (auto& call : aggregate.aggregates) fresh(call.id);
      break;
    }
    case LogicalKind::kValues:
      for (ColumnId& id : static_cast<ValuesOp&>(op).columns) fresh(id);
      break;
    case LogicalKind::kWindow:
      for (auto& function : static_cast<WindowOp&>(op).functions) fresh(function.id);
      break;
    case LogicalKind::kUnionAll:
      for (ColumnId& id : static_cast<UnionAllOp&>(op).columns) fresh(id);
      break;
    case LogicalKind::kSeries: {
      auto& series = static_cast<SeriesOp&>(op);
      fresh(series.column);
      if (series.ordinality) fresh(*series.ordinality);
      break;
    }
    case LogicalKind::kTableFunction: {
      auto& call = static_cast<TableFunctionOp&>(op);
      fresh(call.column);
      if (call.ordinality) fresh(*call.ordinality);
      break;
    }
    case LogicalKind::kJoin:
      if (static_cast<JoinOp&>(op).type == JoinType::kMark) fresh(static_cast<JoinOp&>(op).mark);
      break;
    default:
      break;
  }
  for (LogicalOpPtr& child : op.children) rename_definitions(*child, registry, renamed);
}

}  // namespace

void rename_columns(ExprPtr& expr, const std::map<ColumnId, ColumnId>& renamed) {
  transform_expr(expr, [&](ExprPtr& node) {
    if (node->kind == ExprKind::kColumn) {
      auto found = renamed.find(node->column);
      if (found != renamed.end()) node->column = found->second;
    }
    if (!node->subquery) return;
    LogicalOpPtr plan = clone_tree(*node->subquery);
    for_each_expression_in_tree(*plan, [&](ExprPtr& root) { rename_columns(root, renamed); });
    node->subquery = std::shared_ptr<LogicalOp>(std::move(plan));
  });
}

LogicalOpPtr clone_with_fresh_columns(const LogicalOp& op, ColumnRegistry& registry,
                                      std::map<ColumnId, ColumnId>& renamed) {
  LogicalOpPtr copy = clone_tree(op);
  rename_definitions(*copy, registry, renamed);
  for_each_expression_in_tree(*copy, [&](ExprPtr& root) { rename_columns(root, renamed); });
  return copy;
}

}  // namespace floe::plan
