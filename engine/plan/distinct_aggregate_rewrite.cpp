// Aggregates with DISTINCT over one argument x (count/sum/avg; the binder drops DISTINCT from
// min/max), possibly mixed with plain aggregates, become two aggregations:
//  - the lower one groups by (groups, x) and computes partials of the plain aggregates
//    (avg as sum + count);
//  - the upper one groups by the groups, aggregates x without DISTINCT and combines the
//    partials (sum of counts, sum of sums, min of mins, max of maxes);
//  - a map on top finishes count (0, not NULL, on empty input) and avg (sum / count).
#include "engine/plan/expression_utils.h"
#include "engine/plan/optimizer.h"
#include "storage/error.h"
#include "storage/stack_depth.h"

namespace floe::plan {

namespace {

std::vector<ExprPtr> two(ExprPtr first, ExprPtr second) {
  std::vector<ExprPtr> children;
  children.push_back(std::move(first));
  children.push_back(std::move(second));
  return children;
}

bool is_count(AggregateFunction function) {
  return function == AggregateFunction::kCount || function == AggregateFunction::kCountStar;
}

// Splits one AggregateOp (the upper one, rewritten in place) into the two aggregations and
// the finishing map.
class DistinctSplit {
 public:
  DistinctSplit(AggregateOp& upper, ColumnRegistry& registry)
      : upper_(upper), registry_(registry), lower_(std::make_unique<AggregateOp>()) {}

  LogicalOpPtr apply(LogicalOpPtr op, const Expr& distinct_argument) {
    for (auto& group : upper_.groups) {
      ColumnId id = registry_.add(registry_[group.id]);
      lower_->groups.push_back({id, std::move(group.expr)});
      group.expr = make_column(id, registry_[id].type, registry_[id].nullable);
    }
    ColumnId distinct_id =
        registry_.add({distinct_argument.type, distinct_argument.nullable, "distinct"});
    lower_->groups.push_back({distinct_id, distinct_argument.clone()});

    std::vector<AggregateOp::Aggregate> originals = std::move(upper_.aggregates);
    upper_.aggregates.clear();
    for (auto& call : originals) {
      if (call.distinct) {
        call.argument =
            make_column(distinct_id, distinct_argument.type, distinct_argument.nullable);
        call.distinct = false;
        upper_.aggregates.push_back(std::move(call));
      } else {
        split(std::move(call));
      }
    }

    lower_->children = std::move(upper_.children);
    upper_.children.clear();
    upper_.children.push_back(std::move(lower_));
    if (finish_->computed.empty()) return op;
    finish_->children.push_back(std::move(op));
    return std::move(finish_);
  }

 private:
  void split(AggregateOp::Aggregate call) {
    const SqlType type = registry_[call.id].type;
    if (is_count(call.function)) {
      ExprPtr partial = add_partial(call.function, std::move(call.argument), type);
      ExprPtr count =
          make_expr(ExprKind::kCoalesce, type,
                    two(add_combined(std::move(partial)), make_constant(Value::big_int(0))));
      count->nullable = false;
      finish_->computed.push_back({call.id, std::move(count)});
    } else if (call.function == AggregateFunction::kAvg) {
      SqlType sum_type = avg_sum_type(call.argument->type);
      ExprPtr sum =
          add_combined(add_partial(AggregateFunction::kSum, call.argument->clone(), sum_type));
      ExprPtr count = add_combined(
          add_partial(AggregateFunction::kCount, std::move(call.argument), SqlType::big_int()));
      // The count is 0 exactly when the sum is NULL, so the division never sees a zero.
      ExprPtr average =
          make_expr(ExprKind::kArithmetic, type,
                    two(make_cast(std::move(sum), type), make_cast(std::move(count), type)));
      average->arithmetic_op = ArithmeticOp::kDivide;
      finish_->computed.push_back({call.id, std::move(average)});
    } else {
      // sum/min/max of the partials have the original type: the upper aggregate keeps the id.
      ExprPtr partial = add_partial(call.function, std::move(call.argument), type);
      upper_.aggregates.push_back({call.id, call.function, std::move(partial), false});
    }
  }

  // A lower aggregate function(argument) of `type`; returns a reference to its column.
  ExprPtr add_partial(AggregateFunction function, ExprPtr argument, const SqlType& type) {
    bool nullable = !is_count(function);
    ColumnId id = registry_.add({type, nullable, "partial"});
    lower_->aggregates.push_back({id, function, std::move(argument), false});
    return make_column(id, type, nullable);
  }

  // An upper sum of a partial column (NULL only without any input row).
  ExprPtr add_combined(ExprPtr partial) {
    const SqlType type = partial->type;
    ColumnId id = registry_.add({type, true, "sum"});
    upper_.aggregates.push_back({id, AggregateFunction::kSum, std::move(partial), false});
    return make_column(id, type, true);
  }

  AggregateOp& upper_;
  ColumnRegistry& registry_;
  std::unique_ptr<AggregateOp> lower_;
  std::unique_ptr<MapOp> finish_ = std::make_unique<MapOp>();
};

LogicalOpPtr rewrite(LogicalOpPtr op, ColumnRegistry& registry) {
  check_stack_depth();
  for (LogicalOpPtr& child : op->children) child = rewrite(std::move(child), registry);
  if (op->kind != LogicalKind::kAggregate) return op;
  auto& upper = static_cast<AggregateOp&>(*op);
  const Expr* distinct_argument = nullptr;
  for (const auto& call : upper.aggregates) {
    if (!call.distinct) continue;
    if (!distinct_argument) distinct_argument = call.argument.get();
    if (!expr_equal(*call.argument, *distinct_argument))
      throw NotSupported("DISTINCT aggregates over different arguments");
  }
  if (!distinct_argument) return op;
  ExprPtr argument = distinct_argument->clone();  // the calls' arguments are replaced
  return DistinctSplit(upper, registry).apply(std::move(op), *argument);
}

}  // namespace

void rewrite_distinct_aggregates(LogicalPlan& plan) {
  plan.root = rewrite(std::move(plan.root), plan.registry);
}

}  // namespace floe::plan
