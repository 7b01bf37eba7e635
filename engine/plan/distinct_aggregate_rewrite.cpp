// count/sum/avg(DISTINCT x) become two aggregations: the lower one groups by (groups, x), the
// upper one aggregates x without DISTINCT over those groups.
#include "engine/plan/expression_utils.h"
#include "engine/plan/optimizer.h"
#include "storage/error.h"

namespace floe::plan {

namespace {

LogicalOpPtr rewrite(LogicalOpPtr op, ColumnRegistry& registry) {
  for (LogicalOpPtr& child : op->children) child = rewrite(std::move(child), registry);
  if (op->kind != LogicalKind::kAggregate) return op;
  auto& upper = static_cast<AggregateOp&>(*op);
  bool any_distinct = false, all_distinct = true;
  for (const auto& call : upper.aggregates) {
    any_distinct |= call.distinct;
    all_distinct &= call.distinct;
  }
  if (!any_distinct) return op;
  if (!all_distinct) throw NotSupported("mixing DISTINCT and non-DISTINCT aggregates");
  ExprPtr distinct_argument = upper.aggregates[0].argument->clone();
  const Expr& argument = *distinct_argument;
  for (const auto& call : upper.aggregates)
    if (!expr_equal(*call.argument, argument))
      throw NotSupported("DISTINCT aggregates over different arguments");

  auto lower = std::make_unique<AggregateOp>();
  for (auto& group : upper.groups) {
    ColumnId id = registry.add(registry[group.id]);
    lower->groups.push_back({id, std::move(group.expr)});
    group.expr = make_column(id, registry[id].type, registry[id].nullable);
  }
  ColumnId distinct_id = registry.add({argument.type, argument.nullable, "distinct"});
  lower->groups.push_back({distinct_id, argument.clone()});
  for (auto& call : upper.aggregates) {
    call.argument = make_column(distinct_id, argument.type, argument.nullable);
    call.distinct = false;
  }
  lower->children = std::move(upper.children);
  upper.children.clear();
  upper.children.push_back(std::move(lower));
  return op;
}

}  // namespace

void rewrite_distinct_aggregates(LogicalPlan& plan) {
  plan.root = rewrite(std::move(plan.root), plan.registry);
}

}  // namespace floe::plan
