#include "engine/plan/mark_join_unnesting.h"

#include <optional>
#include <utility>

#include "engine/plan/expression_utils.h"
#include "engine/plan/logical_walk.h"

namespace floe::plan {

namespace {

ExprPtr compare(CompareOp op, ExprPtr left, ExprPtr right) {
  std::vector<ExprPtr> operands;
  operands.push_back(std::move(left));
  operands.push_back(std::move(right));
  auto result = make_expr(ExprKind::kCompare, SqlType::boolean(), std::move(operands));
  result->compare_op = op;
  return result;
}

ExprPtr unary(ExprKind kind, ExprPtr operand, bool negated = false) {
  std::vector<ExprPtr> operands;
  operands.push_back(std::move(operand));
  auto result = make_expr(kind, SqlType::boolean(), std::move(operands));
  result->negated = negated;
  return result;
}

ExprPtr either(ExprPtr a, ExprPtr b) {
  std::vector<ExprPtr> terms;
  terms.push_back(std::move(a));
  terms.push_back(std::move(b));
  return make_expr(ExprKind::kOr, SqlType::boolean(), std::move(terms));
}

ExprPtr boolean_constant(std::optional<bool> value) {
  return make_constant(value ? Value::boolean(*value) : Value::null(SqlType::boolean()));
}

// The replacement of `node`: `result`, or NOT `result` for NOT IN and ALL.
ExprPtr finish(ExprPtr result, const Expr& node) {
  result->position = node.position;
  return node.negated ? unary(ExprKind::kNot, std::move(result)) : std::move(result);
}

}  // namespace

ExprPtr make_mark_join(JoinOp& join, Expr& node, ColumnRegistry& registry) {
  join.type = JoinType::kMark;
  bool nullable = false;
  if (node.kind == ExprKind::kInSubquery) {
    for (size_t i = 0; i < node.columns.size(); ++i) {
      const ColumnInfo& info = registry[node.columns[i]];
      ExprPtr column = make_column(node.columns[i], info.type, info.nullable);
      nullable |= node.children[i]->nullable || info.nullable;
      if (node.compare_op == CompareOp::kEqual) {
        join.keys.push_back({std::move(node.children[i]), std::move(column)});
        ++join.mark_keys;
      } else {
        join.mark_condition =
            compare(node.compare_op, std::move(node.children[i]), std::move(column));
      }
    }
  }
  const char* name = node.kind == ExprKind::kExists ? "exists" : "any";
  join.mark = registry.add({SqlType::boolean(), nullable, name});
  return finish(make_column(join.mark, SqlType::boolean(), nullable), node);
}

bool decided_by_aggregates(const Expr& node) {
  return node.kind == ExprKind::kInSubquery && node.compare_op != CompareOp::kEqual;
}

LogicalOpPtr quantified_by_aggregates(LogicalOpPtr input, ExprPtr& node,
                                      ColumnRegistry& registry) {
  const ColumnInfo info = registry[node->columns[0]];
  auto aggregate = std::make_unique<AggregateOp>();
  auto add = [&](AggregateFunction function, SqlType type, bool nullable, const char* name) {
    AggregateOp::Aggregate call;
    const ColumnId id = call.id = registry.add({type, nullable, name});
    call.function = function;
    if (function != AggregateFunction::kCountStar)
      call.argument = make_column(node->columns[0], info.type, info.nullable);
    aggregate->aggregates.push_back(std::move(call));
    return make_column(id, type, nullable);
  };
  ExprPtr rows = add(AggregateFunction::kCountStar, SqlType::big_int(), false, "count");
  ExprPtr values = add(AggregateFunction::kCount, SqlType::big_int(), false, "count");
  ExprPtr least = add(AggregateFunction::kMin, info.type, true, "min");
  ExprPtr greatest = add(AggregateFunction::kMax, info.type, true, "max");
  aggregate->estimated_rows = 1;
  aggregate->children.push_back(clone_tree(*node->subquery));

  // x op ANY (S): FALSE for an empty S; TRUE when x op holds for the bound of S that is the
  // easiest to satisfy; else unknown when x or some value of S is NULL; else FALSE.
  ExprPtr& x = node->children[0];
  ExprPtr holds;
  switch (node->compare_op) {
    case CompareOp::kLess:
    case CompareOp::kLessEqual:
      holds = compare(node->compare_op, x->clone(), std::move(greatest));
      break;
    case CompareOp::kGreater:
    case CompareOp::kGreaterEqual:
      holds = compare(node->compare_op, x->clone(), std::move(least));
      break;
    default:  // <>: some value differs from x when the smallest or the largest does
      holds = either(compare(CompareOp::kNotEqual, x->clone(), std::move(least)),
                     compare(CompareOp::kNotEqual, x->clone(), std::move(greatest)));
      break;
  }
  std::vector<ExprPtr> cases;
  cases.push_back(compare(CompareOp::kEqual, rows->clone(), make_constant(Value::big_int(0))));
  cases.push_back(boolean_constant(false));
  cases.push_back(std::move(holds));
  cases.push_back(boolean_constant(true));
  cases.push_back(either(unary(ExprKind::kIsNull, std::move(x)),
                         compare(CompareOp::kLess, std::move(values), std::move(rows))));
  cases.push_back(boolean_constant(std::nullopt));
  cases.push_back(boolean_constant(false));
  ExprPtr result = make_expr(ExprKind::kCase, SqlType::boolean(), std::move(cases));
  node = finish(std::move(result), *node);

  auto join = std::make_unique<JoinOp>();
  join->estimated_rows = input->estimated_rows;
  join->children.push_back(std::move(input));
  join->children.push_back(std::move(aggregate));
  return join;
}

}  // namespace floe::plan
