// Aggregates with DISTINCT over one argument x (the binder drops DISTINCT from min/max and
// bool_and/bool_or), possibly mixed with plain aggregates, become two aggregations:
//  - the lower one groups by (groups, x) and computes partials of the plain aggregates
//    (avg as sum + count);
//  - the upper one groups by the groups, aggregates x without DISTINCT and combines the
//    partials (sum of counts, sum of sums, min of mins, max of maxes, ...);
//  - a map on top finishes count (0, not NULL, on empty input) and avg (sum / count).
// DISTINCT over several arguments x1..xk, or plain aggregates without such partials
// (variance), tag the input instead, like the Expand operator of Spark SQL and the
// "aggregate-splitting" of Bellamkonda et al. (VLDB 2013): each row meets the tags
// 0 (if there are plain aggregates) and 1..k (a cross join with a VALUES list); the lower
// aggregation groups by (groups, tag, d1..dk) with dj = CASE WHEN tag = j THEN xj END and
// computes the plain aggregates over the rows tagged 0 only. Per group of the upper
// aggregation, the tag-0 row holds the plain aggregates' final values (or partials) and
// the tag-j rows the distinct values of xj, which the upper aggregates skip elsewhere as
// NULLs.
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

// DISTINCT that this rewrite removes (string_agg deduplicates its collected values itself).
bool rewritten_distinct(const AggregateOp::Aggregate& call) {
  return call.distinct && !is_collected(call.function);
}

// Whether an upper aggregation can combine partials of the plain aggregate `function`
// computed over several lower groups.
bool has_partials(AggregateFunction function) {
  return is_count(function) || function == AggregateFunction::kAvg ||
         combines_with_itself(function);
}

// CASE WHEN tag = value THEN expr END.
ExprPtr only_for_tag(const Expr& tag, int32_t value, ExprPtr expr) {
  ExprPtr test = make_expr(ExprKind::kCompare, SqlType::boolean(),
                           two(tag.clone(), make_constant(Value::integer(value))));
  test->compare_op = CompareOp::kEqual;
  const SqlType type = expr->type;
  std::vector<ExprPtr> children = two(std::move(test), std::move(expr));
  children.push_back(make_constant(Value::null(type)));
  return make_expr(ExprKind::kCase, type, std::move(children));
}

// Splits one AggregateOp (the upper one, rewritten in place) into the two aggregations and
// the finishing map.
class DistinctSplit {
 public:
  DistinctSplit(AggregateOp& upper, ColumnRegistry& registry)
      : upper_(upper), registry_(registry), lower_(std::make_unique<AggregateOp>()) {}

  // `arguments`: the distinct arguments, each once; `tagged`: the tagged form (see above).
  LogicalOpPtr apply(LogicalOpPtr op, const std::vector<ExprPtr>& arguments, bool tagged) {
    for (auto& group : upper_.groups) {
      ColumnId id = registry_.add(registry_[group.id]);
      lower_->groups.push_back({id, std::move(group.expr)});
      group.expr = make_column(id, registry_[id].type, registry_[id].nullable);
    }
    lower_->children = std::move(upper_.children);
    upper_.children.clear();
    std::vector<AggregateOp::Aggregate> originals = std::move(upper_.aggregates);
    upper_.aggregates.clear();
    if (tagged) add_tags(arguments.size(), originals);

    std::vector<ExprPtr> distinct_columns;
    for (size_t j = 0; j < arguments.size(); ++j) {
      const Expr& argument = *arguments[j];
      ColumnId id = registry_.add({argument.type, argument.nullable || tagged, "distinct"});
      ExprPtr value = argument.clone();
      if (tagged) value = only_for_tag(*tag_, static_cast<int32_t>(j + 1), std::move(value));
      lower_->groups.push_back({id, std::move(value)});
      distinct_columns.push_back(make_column(id, argument.type, argument.nullable || tagged));
    }

    for (auto& call : originals) {
      if (rewritten_distinct(call)) {
        size_t j = 0;
        while (!expr_equal(*call.argument, *arguments[j])) ++j;
        call.argument = distinct_columns[j]->clone();
        call.distinct = false;
        upper_.aggregates.push_back(std::move(call));
      } else {
        if (tagged) {
          if (call.function == AggregateFunction::kCountStar) {
            call.function = AggregateFunction::kCount;
            call.argument = make_constant(Value::boolean(true));
          }
          call.argument = only_for_tag(*tag_, 0, std::move(call.argument));
        }
        split(std::move(call));
      }
    }

    upper_.children.push_back(std::move(lower_));
    if (finish_->computed.empty()) return op;
    finish_->children.push_back(std::move(op));
    return std::move(finish_);
  }

 private:
  // Crosses the lower aggregation's input with the tags and groups by the tag.
  void add_tags(size_t distinct_count, const std::vector<AggregateOp::Aggregate>& calls) {
    bool plain = false;
    for (const auto& call : calls) plain |= !rewritten_distinct(call);
    ColumnId tag = registry_.add({SqlType::integer(), false, "tag"});
    auto tags = std::make_unique<ValuesOp>();
    tags->columns.push_back(tag);
    for (size_t value = plain ? 0 : 1; value <= distinct_count; ++value) {
      std::vector<ExprPtr> row;
      row.push_back(make_constant(Value::integer(static_cast<int32_t>(value))));
      tags->rows.push_back(std::move(row));
    }
    auto cross = std::make_unique<JoinOp>();
    cross->children.push_back(std::move(lower_->children[0]));
    cross->children.push_back(std::move(tags));
    lower_->children.clear();
    lower_->children.push_back(std::move(cross));
    tag_ = make_column(tag, SqlType::integer(), false);
    lower_->groups.push_back({registry_.add({SqlType::integer(), false, "tag"}), tag_->clone()});
  }

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
    } else if (combines_with_itself(call.function)) {
      // sum/min/max/... of the partials have the original type: the upper aggregate keeps
      // the id.
      ExprPtr partial = add_partial(call.function, std::move(call.argument), type);
      upper_.aggregates.push_back({call.id, call.function, std::move(partial), false});
    } else {
      // Tagged: the group's one tag-0 row holds the final value, the others NULL.
      if (!tag_) throw Error("internal error: an aggregate without partials in one group");
      ColumnId upper_id = call.id;
      call.id = registry_.add({type, true, "partial"});
      ExprPtr result = make_column(call.id, type, true);
      lower_->aggregates.push_back(std::move(call));
      upper_.aggregates.push_back({upper_id, AggregateFunction::kMax, std::move(result), false});
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
  ExprPtr tag_;  // the tag column, in the tagged form
};

LogicalOpPtr rewrite(LogicalOpPtr op, ColumnRegistry& registry) {
  check_stack_depth();
  for (LogicalOpPtr& child : op->children) child = rewrite(std::move(child), registry);
  if (op->kind != LogicalKind::kAggregate) return op;
  auto& upper = static_cast<AggregateOp&>(*op);
  std::vector<ExprPtr> arguments;  // the calls' arguments are replaced: copies
  bool without_partials = false;
  for (const auto& call : upper.aggregates) {
    if (!rewritten_distinct(call)) {
      without_partials |= !has_partials(call.function);
      continue;
    }
    bool known = false;
    for (const ExprPtr& argument : arguments) known |= expr_equal(*call.argument, *argument);
    if (!known) arguments.push_back(call.argument->clone());
  }
  if (arguments.empty()) return op;
  bool tagged = arguments.size() > 1 || without_partials;
  return DistinctSplit(upper, registry).apply(std::move(op), arguments, tagged);
}

}  // namespace

void rewrite_distinct_aggregates(LogicalPlan& plan) {
  plan.root = rewrite(std::move(plan.root), plan.registry);
}

}  // namespace floe::plan
