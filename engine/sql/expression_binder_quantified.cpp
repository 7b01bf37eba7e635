// Quantified comparisons with a subquery (IN, op ANY / SOME, op ALL) and row constructors in
// comparisons and IN lists. `x op ALL (S)` is bound as NOT (x negated-op ANY (S)), which has
// the same three-valued result; the unnesting (mark_join_unnesting.h) sees only ANY.
#include <algorithm>
#include <array>
#include <utility>

#include "engine/plan/expression_utils.h"
#include "engine/sql/expression_binder.h"
#include "storage/error.h"

namespace floe::sql {

using plan::CompareOp;
using plan::ExprKind;
using plan::ExprPtr;

namespace {

bool is_comparison(std::string_view name) {
  static constexpr std::array<std::string_view, 6> kNames = {"=", "<>", "<", "<=", ">", ">="};
  return std::find(kNames.begin(), kNames.end(), name) != kNames.end();
}

// The operator of NOT (a op b).
CompareOp negate(CompareOp op) {
  switch (op) {
    case CompareOp::kEqual:
      return CompareOp::kNotEqual;
    case CompareOp::kNotEqual:
      return CompareOp::kEqual;
    case CompareOp::kLess:
      return CompareOp::kGreaterEqual;
    case CompareOp::kLessEqual:
      return CompareOp::kGreater;
    case CompareOp::kGreater:
      return CompareOp::kLessEqual;
    case CompareOp::kGreaterEqual:
      return CompareOp::kLess;
  }
  return op;
}

ExprPtr junction(ExprKind kind, std::vector<ExprPtr> terms, int location) {
  if (terms.size() == 1) return std::move(terms[0]);
  return plan::make_expr(kind, SqlType::boolean(), std::move(terms), location);
}

bool is_row(const Node* node) {
  return node->node_case == PG_QUERY__NODE__NODE_ROW_EXPR;
}

// Row comparison as PostgreSQL defines it: = and <> compare all pairs; the orderings compare
// lexicographically, (a, b) < (c, d) being a < c OR (a = c AND b < d).
ExprPtr compare_rows(std::string_view name, std::vector<ExprPtr> left, std::vector<ExprPtr> right,
                     int location) {
  if (left.size() != right.size())
    throw Error("unequal number of entries in row expressions", location);
  if (!is_comparison(name))
    throw NotSupported("row comparisons with operator " + std::string(name));
  std::vector<ExprPtr> terms;
  if (name == "=" || name == "<>") {
    for (size_t i = 0; i < left.size(); ++i)
      terms.push_back(ExpressionBinder::comparison(name, std::move(left[i]), std::move(right[i]),
                                                   location));
    return junction(name == "=" ? ExprKind::kAnd : ExprKind::kOr, std::move(terms), location);
  }
  const std::string_view strict = name[0] == '<' ? "<" : ">";
  ExprPtr result = ExpressionBinder::comparison(name, std::move(left.back()),
                                                std::move(right.back()), location);
  for (size_t i = left.size() - 1; i-- > 0;) {
    std::vector<ExprPtr> tie;
    tie.push_back(ExpressionBinder::comparison("=", left[i]->clone(), right[i]->clone(), location));
    tie.push_back(std::move(result));
    std::vector<ExprPtr> either;
    either.push_back(
        ExpressionBinder::comparison(strict, std::move(left[i]), std::move(right[i]), location));
    either.push_back(junction(ExprKind::kAnd, std::move(tie), location));
    result = junction(ExprKind::kOr, std::move(either), location);
  }
  return result;
}

std::vector<ExprPtr> clone_all(const std::vector<ExprPtr>& exprs) {
  std::vector<ExprPtr> copies;
  for (const ExprPtr& expr : exprs) copies.push_back(expr->clone());
  return copies;
}

}  // namespace

std::vector<ExprPtr> ExpressionBinder::bind_row(const Node* node) {
  std::vector<ExprPtr> values;
  if (!is_row(node)) {
    values.push_back(bind(node));
    return values;
  }
  const PgQuery__RowExpr& row = *node->row_expr;
  for (size_t i = 0; i < row.n_args; ++i) values.push_back(bind(row.args[i]));
  return values;
}

// needles op ANY (subquery): each needle and its subquery column get the types of the
// comparison needle op column; a cast of a subquery column is computed by a MapOp on top of
// the subquery.
ExprPtr ExpressionBinder::quantified_subquery(const PgQuery__SubLink& link, BoundQuery query) {
  const bool all = link.sub_link_type == PG_QUERY__SUB_LINK_TYPE__ALL_SUBLINK;
  const std::string_view name =
      link.n_oper_name ? last_name(link.oper_name, link.n_oper_name) : std::string_view("=");
  std::vector<ExprPtr> needles = bind_row(link.testexpr);
  if (query.outputs.size() < needles.size())
    throw Error("subquery has too few columns", link.location);
  if (query.outputs.size() > needles.size())
    throw Error("subquery has too many columns", link.location);
  if (!is_comparison(name))
    throw NotSupported(std::string(all ? "ALL" : "ANY") + " (subquery) with operator " +
                           std::string(name),
                       link.location);
  if (needles.size() > 1 && name != (all ? "<>" : "="))
    throw NotSupported("row-valued subquery comparisons other than IN, = ANY and <> ALL",
                       link.location);
  auto result = plan::make_expr(ExprKind::kInSubquery, SqlType::boolean(), {}, link.location);
  result->nullable = false;
  auto map = std::make_unique<plan::MapOp>();
  for (size_t i = 0; i < needles.size(); ++i) {
    const plan::ColumnId id = query.outputs[i].id;
    const plan::ColumnInfo info = context_.registry[id];
    ExprPtr compared = comparison(name, std::move(needles[i]),
                                  plan::make_column(id, info.type, info.nullable), link.location);
    result->compare_op = compared->compare_op;
    ExprPtr column = std::move(compared->children[1]);
    plan::ColumnId output = id;
    if (column->kind != ExprKind::kColumn) {
      output = context_.registry.add({column->type, column->nullable, info.name});
      map->computed.push_back({output, std::move(column)});
    }
    result->nullable |= compared->children[0]->nullable || info.nullable;
    result->children.push_back(std::move(compared->children[0]));
    result->columns.push_back(output);
  }
  if (!map->computed.empty()) {
    map->children.push_back(std::move(query.root));
    query.root = std::move(map);
  }
  if (all) {
    result->compare_op = negate(result->compare_op);
    result->negated = true;
  }
  result->subquery = std::shared_ptr<plan::LogicalOp>(std::move(query.root));
  return result;
}

ExprPtr ExpressionBinder::row_comparison(std::string_view op, const PgQuery__AExpr& expr) {
  return compare_rows(op, bind_row(expr.lexpr), bind_row(expr.rexpr), expr.location);
}

// (a, b) IN ((1, 2), (3, 4)): OR of row equalities; NOT IN is its negation.
ExprPtr ExpressionBinder::row_in_list(const PgQuery__AExpr& expr) {
  std::vector<ExprPtr> row = bind_row(expr.lexpr);
  const PgQuery__List& list = *expr.rexpr->list;
  std::vector<ExprPtr> terms;
  for (size_t i = 0; i < list.n_items; ++i) {
    std::vector<ExprPtr> item = bind_row(list.items[i]);
    if (!is_row(list.items[i]))
      throw Error("operator does not exist: record = " + item[0]->type.to_string(),
                  expr.location);
    terms.push_back(compare_rows("=", clone_all(row), std::move(item), expr.location));
  }
  ExprPtr any = junction(ExprKind::kOr, std::move(terms), expr.location);
  if (last_name(expr.name, expr.n_name) != "<>") return any;
  std::vector<ExprPtr> operand;
  operand.push_back(std::move(any));
  return plan::make_expr(ExprKind::kNot, SqlType::boolean(), std::move(operand), expr.location);
}

}  // namespace floe::sql
