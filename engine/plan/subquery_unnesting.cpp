#include "engine/plan/subquery_unnesting.h"

#include <algorithm>
#include <map>
#include <optional>
#include <set>

#include "engine/plan/correlation.h"
#include "engine/plan/dependent_join.h"
#include "engine/plan/expression_utils.h"
#include "engine/plan/logical_walk.h"
#include "engine/plan/mark_join_unnesting.h"
#include "storage/error.h"
#include "storage/stack_depth.h"

namespace floe::plan {

namespace {

bool contains_exists_or_in(const Expr& expr) {
  check_stack_depth();
  if (expr.kind == ExprKind::kExists || expr.kind == ExprKind::kInSubquery) return true;
  return std::any_of(expr.children.begin(), expr.children.end(),
                     [](const ExprPtr& child) { return contains_exists_or_in(*child); });
}

// Moves the conjuncts that read `free` columns out of `predicate` into `pulled`.
ExprPtr extract_correlated(ExprPtr predicate, const ColumnSet& free, std::vector<ExprPtr>& pulled) {
  std::vector<ExprPtr> conjuncts, kept;
  split_conjuncts(std::move(predicate), conjuncts);
  for (ExprPtr& conjunct : conjuncts)
    (intersects(columns_of(*conjunct), free) ? pulled : kept).push_back(std::move(conjunct));
  return make_conjunction(std::move(kept));
}

// Pulls the correlated conjuncts of filters, inner-join conditions and scan filters up and
// out of `op`. It stops at operators that change multiplicities or NULL-extend (aggregates,
// sorts, limits, outer joins): a correlation below them stays, and the caller rejects it.
LogicalOpPtr pull_up_correlations(LogicalOpPtr op, const ColumnSet& free,
                                  std::vector<ExprPtr>& pulled) {
  check_stack_depth();
  switch (op->kind) {
    case LogicalKind::kFilter: {
      auto& filter = static_cast<FilterOp&>(*op);
      filter.predicate = extract_correlated(std::move(filter.predicate), free, pulled);
      op->children[0] = pull_up_correlations(std::move(op->children[0]), free, pulled);
      return filter.predicate ? std::move(op) : std::move(op->children[0]);
    }
    case LogicalKind::kJoin: {
      auto& join = static_cast<JoinOp&>(*op);
      if (join.type != JoinType::kInner) return op;
      if (join.residual) join.residual = extract_correlated(std::move(join.residual), free, pulled);
      for (LogicalOpPtr& child : op->children)
        child = pull_up_correlations(std::move(child), free, pulled);
      return op;
    }
    case LogicalKind::kScan: {
      auto& scan = static_cast<ScanOp&>(*op);
      std::vector<ExprPtr> kept;
      for (ExprPtr& filter : scan.filters)
        (intersects(columns_of(*filter), free) ? pulled : kept).push_back(std::move(filter));
      scan.filters = std::move(kept);
      return op;
    }
    case LogicalKind::kMap:
      op->children[0] = pull_up_correlations(std::move(op->children[0]), free, pulled);
      return op;
    default:
      return op;
  }
}

// An equality between an expression over `outer` columns and one over `inner` columns.
struct Equivalence {
  ExprPtr outer;
  ExprPtr inner;
};

// Which operand of an equality `conjunct` is over `outer` columns while the other one is over
// `inner` columns: 0 or 1, or -1 when it is not such an equality.
int outer_operand(const Expr& conjunct, const ColumnSet& outer, const ColumnSet& inner) {
  if (conjunct.kind != ExprKind::kCompare || conjunct.compare_op != CompareOp::kEqual) return -1;
  const Expr& a = *conjunct.children[0];
  const Expr& b = *conjunct.children[1];
  if (!(a.type == b.type)) return -1;
  ColumnSet a_columns = columns_of(a), b_columns = columns_of(b);
  if (a_columns.empty() || b_columns.empty()) return -1;
  if (subset_of(a_columns, outer) && subset_of(b_columns, inner)) return 0;
  if (subset_of(b_columns, outer) && subset_of(a_columns, inner)) return 1;
  return -1;
}

std::optional<Equivalence> as_equivalence(ExprPtr& conjunct, const ColumnSet& outer,
                                          const ColumnSet& inner) {
  int side = outer_operand(*conjunct, outer, inner);
  if (side < 0) return std::nullopt;
  return Equivalence{std::move(conjunct->children[side]), std::move(conjunct->children[1 - side])};
}

LogicalOpPtr make_filter(LogicalOpPtr input, ExprPtr predicate);

class Unnester {
 public:
  explicit Unnester(ColumnRegistry& registry) : registry_(registry) {}
  LogicalOpPtr unnest(LogicalOpPtr op);

 private:
  void unnest_nested_plans(ExprPtr& expr);
  bool is_correlated(const Expr& expr) const;
  bool has_correlated_scalar(ExprPtr& expr) const;
  bool needs_joins(ExprPtr& expr) const;
  void check_only_uncorrelated(LogicalOp& op);
  LogicalOpPtr unnest_filter(LogicalOpPtr op);
  LogicalOpPtr unnest_map(LogicalOpPtr op);
  LogicalOpPtr unnest_single_input(LogicalOpPtr op);
  LogicalOpPtr lateral_join(LogicalOpPtr op);
  LogicalOpPtr unnest_outer_condition(LogicalOpPtr op);
  LogicalOpPtr full_join_in_parts(LogicalOpPtr op, ExprPtr both_sides);
  LogicalOpPtr attach_correlated_scalars(LogicalOpPtr input, ExprPtr& expr);
  LogicalOpPtr attach_subqueries(LogicalOpPtr input, ExprPtr& expr);
  bool is_semi_join(const Expr& conjunct) const;
  std::unique_ptr<JoinOp> correlated_join(LogicalOpPtr input, const Expr& node);
  LogicalOpPtr semi_join(LogicalOpPtr input, Expr& conjunct);
  LogicalOpPtr scalar_join(LogicalOpPtr input, ExprPtr& subquery);
  LogicalOpPtr aggregate_join(LogicalOpPtr& input, const Expr& subquery_expr);
  LogicalOpPtr single_join(LogicalOpPtr input, Expr& subquery_expr);
  LogicalOpPtr reduce_to_magic_set(LogicalOpPtr body, const LogicalOp& input, const JoinOp& join,
                                   const AggregateOp& aggregate);

  ColumnRegistry& registry_;
};

LogicalOpPtr Unnester::unnest(LogicalOpPtr op) {
  check_stack_depth();
  for (LogicalOpPtr& child : op->children) child = unnest(std::move(child));
  if (op->kind == LogicalKind::kFilter) return unnest_filter(std::move(op));
  if (op->kind == LogicalKind::kMap) return unnest_map(std::move(op));
  if (op->kind == LogicalKind::kSort || op->kind == LogicalKind::kAggregate ||
      op->kind == LogicalKind::kWindow)
    return unnest_single_input(std::move(op));
  if (op->kind == LogicalKind::kJoin) {
    // The ON condition of an inner join that needs joins of its own is a filter above it.
    auto& join = static_cast<JoinOp&>(*op);
    if (join.type == JoinType::kInner && join.residual && needs_joins(join.residual)) {
      ExprPtr condition = std::move(join.residual);
      return unnest_filter(make_filter(lateral_join(std::move(op)), std::move(condition)));
    }
    if ((join.type == JoinType::kLeftOuter || join.type == JoinType::kFullOuter) && join.residual &&
        needs_joins(join.residual))
      op = unnest_outer_condition(std::move(op));
  }
  check_only_uncorrelated(*op);
  if (op->kind == LogicalKind::kJoin) return lateral_join(std::move(op));
  return op;
}

// Subquery plans inside `expr` are unnested first (bottom-up), each on its own copy.
void Unnester::unnest_nested_plans(ExprPtr& expr) {
  transform_expr(expr, [&](ExprPtr& node) {
    if (is_subquery(node->kind))
      node->subquery = std::shared_ptr<LogicalOp>(unnest(clone_tree(*node->subquery)));
  });
}

bool Unnester::is_correlated(const Expr& expr) const {
  return !free_columns(*expr.subquery).empty();
}

bool Unnester::has_correlated_scalar(ExprPtr& expr) const {
  bool found = false;
  transform_expr(expr, [&](ExprPtr& node) {
    found |= node->kind == ExprKind::kScalarSubquery && is_correlated(*node);
  });
  return found;
}

// Whether `expr` is evaluated through joins: it holds EXISTS, IN or a quantified comparison
// (mark or semi joins) or a correlated scalar subquery.
bool Unnester::needs_joins(ExprPtr& expr) const {
  return contains_exists_or_in(*expr) || has_correlated_scalar(expr);
}

// Elsewhere (VALUES) only uncorrelated scalar subqueries are allowed; the query runner
// evaluates them once.
void Unnester::check_only_uncorrelated(LogicalOp& op) {
  for_each_expression(op, [&](ExprPtr& root) {
    unnest_nested_plans(root);
    transform_expr(root, [&](ExprPtr& node) {
      if (!is_subquery(node->kind)) return;
      if (node->kind != ExprKind::kScalarSubquery)
        throw NotSupported("EXISTS and IN subqueries in VALUES", node->position);
      if (is_correlated(*node))
        throw NotSupported("correlated subqueries in VALUES", node->position);
    });
  });
}

// ORDER BY keys, grouping keys, aggregate arguments and window expressions are computed from
// the input's rows: their correlated scalar subqueries and mark joins are joined to the input.
// A subquery in GROUP BY is the grouping key's expression, which the select list reads as the
// group's column (the binder gives both the same subquery).
LogicalOpPtr Unnester::unnest_single_input(LogicalOpPtr op) {
  for_each_expression(*op, [&](ExprPtr& root) {
    unnest_nested_plans(root);
    op->children[0] = attach_subqueries(std::move(op->children[0]), root);
  });
  return op;
}

// A join whose right side reads columns of its left side (LATERAL) is a dependent join.
LogicalOpPtr Unnester::lateral_join(LogicalOpPtr op) {
  auto& join = static_cast<JoinOp&>(*op);
  if (!intersects(free_columns(*join.children[1]), as_set(output_columns(*join.children[0]))))
    return op;
  DecorrelatedSubquery lateral =
      decorrelate(std::move(join.children[1]), *join.children[0], registry_);
  join.children[1] = std::move(lateral.plan);
  add_not_distinct_keys(join, lateral.outer, lateral.domain, registry_);
  mark_null_extended(join, registry_);
  return op;
}

// The ON condition of a LEFT (a RIGHT one's sides are swapped) or FULL join decides which
// pairs match, so its subqueries cannot become filters above the join. A subquery (with the
// needles of IN) that reads the columns of one side only is computed for that side's rows
// before the join, by the joins that keep each row once (scalar, single and mark joins); the
// condition then reads its result. A LEFT join's conjunct whose subquery reads both sides
// filters the build side per probe row instead: t1 LEFT JOIN t2 ON c AND d(t1, t2) is
// t1 LEFT JOIN LATERAL (t2 WHERE d(t1, t2)) ON c, a dependent join. A FULL join preserves
// both sides, so it has no such form: it becomes two parts (full_join_in_parts).
LogicalOpPtr Unnester::unnest_outer_condition(LogicalOpPtr op) {
  auto& join = static_cast<JoinOp&>(*op);
  unnest_nested_plans(join.residual);
  const ColumnSet sides[] = {as_set(output_columns(*join.children[0])),
                             as_set(output_columns(*join.children[1]))};
  // The side whose rows compute the subquery `node`: 0, 1, or -1 when it reads both.
  auto side_of = [&](const Expr& node) {
    ColumnSet read = free_columns(*node.subquery);
    for (const ExprPtr& needle : node.children) collect_columns(*needle, read);
    if (!intersects(read, sides[1])) return 0;
    return intersects(read, sides[0]) ? -1 : 1;
  };
  std::vector<ExprPtr> conjuncts, kept, lateral;
  split_conjuncts(std::move(join.residual), conjuncts);
  for (ExprPtr& conjunct : conjuncts) {
    bool both_sides = false;
    transform_expr(conjunct, [&](ExprPtr& node) {
      both_sides |= is_subquery(node->kind) && side_of(*node) < 0;
    });
    if (both_sides) {
      lateral.push_back(std::move(conjunct));
      continue;
    }
    for (int side : {0, 1}) {
      transform_expr(conjunct, [&](ExprPtr& node) {
        if (is_subquery(node->kind) && side_of(*node) == side)
          join.children[side] = attach_subqueries(std::move(join.children[side]), node);
      });
    }
    kept.push_back(std::move(conjunct));
  }
  join.residual = make_conjunction(std::move(kept));
  if (!lateral.empty() && join.type == JoinType::kFullOuter)
    return full_join_in_parts(std::move(op), make_conjunction(std::move(lateral)));
  if (!lateral.empty())
    join.children[1] = unnest_filter(
        make_filter(std::move(join.children[1]), make_conjunction(std::move(lateral))));
  mark_null_extended(join, registry_);
  return op;
}

// t1 FULL JOIN t2 ON c AND d(t1, t2), where d holds subqueries that read both sides, is
//   t1 LEFT JOIN t2 ON c AND d(t1, t2)   (the dependent join of a LEFT join, above)
//   UNION ALL
//   t2's rows that no row of t1 matches, t1's columns NULL: t2 WHERE NOT EXISTS (SELECT FROM
//   t1 WHERE c AND d(t1, t2)), an anti join on a dependent join.
// Each part reads its own copy of both inputs (with fresh columns); the union outputs the FULL
// join's columns. PostgreSQL evaluates d per pair inside a hash or merge full join, so it
// needs an equality between the sides (a key of `c`), and so does this.
LogicalOpPtr Unnester::full_join_in_parts(LogicalOpPtr op, ExprPtr both_sides) {
  auto& join = static_cast<JoinOp&>(*op);
  if (join.keys.empty())
    throw Error("FULL JOIN is only supported with merge-joinable or hash-joinable join conditions",
                both_sides->position);
  mark_null_extended(join, registry_);
  const std::vector<ColumnId> columns = output_columns(join);
  const ColumnSet left_columns = as_set(output_columns(*join.children[0]));

  std::map<ColumnId, ColumnId> matched_names;
  LogicalOpPtr matched = clone_with_fresh_columns(join, registry_, matched_names);
  auto& left_join = static_cast<JoinOp&>(*matched);
  left_join.type = JoinType::kLeftOuter;
  ExprPtr condition = both_sides->clone();
  rename_columns(condition, matched_names);
  left_join.children[1] =
      unnest_filter(make_filter(std::move(left_join.children[1]), std::move(condition)));
  mark_null_extended(left_join, registry_);
  matched = lateral_join(std::move(matched));

  std::map<ColumnId, ColumnId> unmatched_names;
  LogicalOpPtr copy = clone_with_fresh_columns(join, registry_, unmatched_names);
  auto& pairs = static_cast<JoinOp&>(*copy);
  std::vector<ExprPtr> conjuncts;
  for (JoinOp::KeyPair& key : pairs.keys) {
    std::vector<ExprPtr> operands;
    operands.push_back(std::move(key.probe));
    operands.push_back(std::move(key.build));
    conjuncts.push_back(make_expr(ExprKind::kCompare, SqlType::boolean(), std::move(operands)));
  }
  if (pairs.residual) conjuncts.push_back(std::move(pairs.residual));
  rename_columns(both_sides, unmatched_names);
  conjuncts.push_back(std::move(both_sides));
  auto no_match = make_expr(ExprKind::kExists, SqlType::boolean(), {});
  no_match->negated = true;
  no_match->subquery = std::shared_ptr<LogicalOp>(
      make_filter(std::move(pairs.children[0]), make_conjunction(std::move(conjuncts))));
  LogicalOpPtr unmatched =
      unnest_filter(make_filter(std::move(pairs.children[1]), std::move(no_match)));

  auto parts = std::make_unique<UnionAllOp>();
  parts->estimated_rows = op->estimated_rows;
  parts->columns = columns;
  parts->inputs.resize(2);
  for (ColumnId column : columns) {
    const ColumnInfo& info = registry_[column];
    parts->inputs[0].push_back(make_column(matched_names.at(column), info.type, true));
    parts->inputs[1].push_back(left_columns.count(column)
                                   ? make_constant(Value::null(info.type))
                                   : make_column(unmatched_names.at(column), info.type, true));
  }
  parts->children.push_back(std::move(matched));
  parts->children.push_back(std::move(unmatched));
  return parts;
}

LogicalOpPtr make_filter(LogicalOpPtr input, ExprPtr predicate) {
  if (!predicate) return input;
  auto filter = std::make_unique<FilterOp>();
  filter->estimated_rows = input->estimated_rows;
  filter->predicate = std::move(predicate);
  filter->children.push_back(std::move(input));
  return filter;
}

// WHERE / HAVING: plain conjuncts filter first, then semi/anti joins reduce the input, then
// correlated scalar subqueries and mark joins are joined and the conjuncts that use them
// filter last.
LogicalOpPtr Unnester::unnest_filter(LogicalOpPtr op) {
  auto& filter = static_cast<FilterOp&>(*op);
  unnest_nested_plans(filter.predicate);
  std::vector<ExprPtr> conjuncts, plain, semi, joined;
  split_conjuncts(std::move(filter.predicate), conjuncts);
  for (ExprPtr& conjunct : conjuncts) {
    if (conjunct->kind == ExprKind::kNot &&
        (conjunct->children[0]->kind == ExprKind::kExists ||
         conjunct->children[0]->kind == ExprKind::kInSubquery)) {
      ExprPtr inner = std::move(conjunct->children[0]);
      inner->negated = !inner->negated;
      conjunct = std::move(inner);
    }
    if (is_semi_join(*conjunct))
      semi.push_back(std::move(conjunct));
    else
      (needs_joins(conjunct) ? joined : plain).push_back(std::move(conjunct));
  }
  LogicalOpPtr input = make_filter(std::move(op->children[0]), make_conjunction(std::move(plain)));
  for (ExprPtr& conjunct : semi) input = semi_join(std::move(input), *conjunct);
  for (ExprPtr& conjunct : joined) input = attach_subqueries(std::move(input), conjunct);
  return make_filter(std::move(input), make_conjunction(std::move(joined)));
}

// A conjunct that a semi, anti or null-aware anti join decides: EXISTS, NOT EXISTS and IN
// with needles without subqueries, and NOT IN with one needle and an uncorrelated subquery.
// The others (and all quantified comparisons but IN) get mark joins.
bool Unnester::is_semi_join(const Expr& conjunct) const {
  if (conjunct.kind == ExprKind::kExists) return true;
  if (conjunct.kind != ExprKind::kInSubquery || conjunct.compare_op != CompareOp::kEqual)
    return false;
  for (const ExprPtr& needle : conjunct.children)
    if (contains_exists_or_in(*needle)) return false;
  return !conjunct.negated || (conjunct.children.size() == 1 && !is_correlated(conjunct));
}

LogicalOpPtr Unnester::unnest_map(LogicalOpPtr op) {
  auto& map = static_cast<MapOp&>(*op);
  for (auto& computed : map.computed) {
    unnest_nested_plans(computed.expr);
    op->children[0] = attach_subqueries(std::move(op->children[0]), computed.expr);
  }
  return op;
}

LogicalOpPtr Unnester::attach_correlated_scalars(LogicalOpPtr input, ExprPtr& expr) {
  transform_expr(expr, [&](ExprPtr& node) {
    if (node->kind == ExprKind::kScalarSubquery && is_correlated(*node))
      input = scalar_join(std::move(input), node);
  });
  return input;
}

// Scalar subqueries first: a needle of IN may hold one. Then each EXISTS, IN and quantified
// comparison becomes the mark of a mark join (or the result of the uncorrelated comparison's
// aggregates).
LogicalOpPtr Unnester::attach_subqueries(LogicalOpPtr input, ExprPtr& expr) {
  input = attach_correlated_scalars(std::move(input), expr);
  transform_expr(expr, [&](ExprPtr& node) {
    if (node->kind != ExprKind::kExists && node->kind != ExprKind::kInSubquery) return;
    if (decided_by_aggregates(*node) && !is_correlated(*node)) {
      input = quantified_by_aggregates(std::move(input), node, registry_);
      return;
    }
    auto join = correlated_join(std::move(input), *node);
    node = make_mark_join(*join, *node, registry_);
    input = std::move(join);
  });
  return input;
}

LogicalOpPtr Unnester::semi_join(LogicalOpPtr input, Expr& conjunct) {
  const bool exists = conjunct.kind == ExprKind::kExists;
  auto join = correlated_join(std::move(input), conjunct);
  join->type = exists ? (conjunct.negated ? JoinType::kAnti : JoinType::kSemi)
                      : (conjunct.negated ? JoinType::kNullAwareAnti : JoinType::kSemi);
  for (size_t i = 0; i < conjunct.columns.size(); ++i) {
    const ColumnInfo& info = registry_[conjunct.columns[i]];
    join->keys.push_back({std::move(conjunct.children[i]),
                          make_column(conjunct.columns[i], info.type, info.nullable)});
  }
  return join;
}

// A join of `input` with the subquery of `node` (EXISTS or IN) whose keys and residual are
// the correlation conjuncts pulled up out of the subquery, or, where some cannot be pulled
// up, the keys of the general dependent join; its type is left to the caller.
std::unique_ptr<JoinOp> Unnester::correlated_join(LogicalOpPtr input, const Expr& node) {
  LogicalOpPtr subquery = clone_tree(*node.subquery);
  if (node.kind == ExprKind::kExists) {  // the select list of EXISTS does not matter
    while (subquery->kind == LogicalKind::kMap) subquery = std::move(subquery->children[0]);
  }
  auto join = std::make_unique<JoinOp>();
  join->estimated_rows = input->estimated_rows;
  ColumnSet free = free_columns(*subquery);
  ColumnSet outer = as_set(output_columns(*input));
  std::vector<ExprPtr> correlated;
  if (!free.empty()) {
    // Correlations that stay below an aggregate, sort, limit or outer join take the general
    // dependent join: the join matches each outer row with the rows of its domain value.
    LogicalOpPtr pulled = pull_up_correlations(clone_tree(*subquery), free, correlated);
    if (intersects(free_columns(*pulled), outer)) {
      DecorrelatedSubquery dependent = decorrelate(std::move(subquery), *input, registry_);
      add_not_distinct_keys(*join, dependent.outer, dependent.domain, registry_);
      join->children.push_back(std::move(input));
      join->children.push_back(std::move(dependent.plan));
      return join;
    }
    subquery = std::move(pulled);
  }
  ColumnSet inner = as_set(output_columns(*subquery));
  std::vector<ExprPtr> residual;
  for (ExprPtr& condition : correlated) {
    if (auto equivalence = as_equivalence(condition, outer, inner))
      join->keys.push_back({std::move(equivalence->outer), std::move(equivalence->inner)});
    else
      residual.push_back(std::move(condition));
  }
  join->residual = make_conjunction(std::move(residual));
  join->children.push_back(std::move(input));
  join->children.push_back(std::move(subquery));
  return join;
}

LogicalOpPtr Unnester::scalar_join(LogicalOpPtr input, ExprPtr& subquery_expr) {
  const int position = subquery_expr->position;
  LogicalOpPtr result = aggregate_join(input, *subquery_expr);
  if (!result) result = single_join(std::move(input), *subquery_expr);
  const ColumnInfo& info = registry_[subquery_expr->column];
  subquery_expr = make_column(subquery_expr->column, info.type, info.nullable);
  subquery_expr->position = position;
  return result;
}

// `(SELECT f(aggregates) FROM ... WHERE inner = outer ...)`: the dependent join pushed
// through the aggregate by hand, grouping by the inner side of each equality. Null (and
// `input` untouched) when the subquery has another shape.
LogicalOpPtr Unnester::aggregate_join(LogicalOpPtr& input, const Expr& subquery_expr) {
  LogicalOpPtr subquery = clone_tree(*subquery_expr.subquery);
  ColumnSet free = free_columns(*subquery);
  // The select list above the aggregate is evaluated after the join, where the outer
  // columns it may read exist.
  std::vector<LogicalOpPtr> maps;
  while (subquery->kind == LogicalKind::kMap) {
    LogicalOpPtr child = std::move(subquery->children[0]);
    subquery->children.clear();
    maps.push_back(std::move(subquery));
    subquery = std::move(child);
  }
  if (!returns_one_row(*subquery)) return nullptr;
  auto& aggregate = static_cast<AggregateOp&>(*subquery);
  std::vector<ExprPtr> correlated;
  aggregate.children[0] = pull_up_correlations(std::move(aggregate.children[0]), free, correlated);
  if (!free_columns(aggregate).empty()) return nullptr;
  ColumnSet outer = as_set(output_columns(*input));
  ColumnSet inner = as_set(output_columns(*aggregate.children[0]));
  for (ExprPtr& condition : correlated)
    if (outer_operand(*condition, outer, inner) < 0) return nullptr;

  // Dependent join pushed through the aggregate: group by the inner side of each equality.
  auto join = std::make_unique<JoinOp>();
  join->type = JoinType::kLeftOuter;
  join->estimated_rows = input->estimated_rows;
  for (ExprPtr& condition : correlated) {
    auto equivalence = as_equivalence(condition, outer, inner);
    // Nullable: the key is on the NULL-extended side of the join.
    const SqlType type = equivalence->inner->type;
    ColumnId key = registry_.add({type, true, "correlation_key"});
    aggregate.groups.push_back({key, std::move(equivalence->inner)});
    join->keys.push_back({std::move(equivalence->outer), make_column(key, type, true)});
  }
  aggregate.children[0] =
      reduce_to_magic_set(std::move(aggregate.children[0]), *input, *join, aggregate);
  join->children.push_back(std::move(input));
  join->children.push_back(std::move(subquery));
  LogicalOpPtr result = zero_missing_counts(std::move(join), aggregate, registry_);
  for (auto map = maps.rbegin(); map != maps.rend(); ++map) {
    (*map)->children.push_back(std::move(result));
    result = std::move(*map);
  }
  return result;
}

// Any other scalar subquery: the dependent join, joined back as a left "single join": an
// outer row gets the subquery's one row, NULL without one, and PostgreSQL's error with more.
LogicalOpPtr Unnester::single_join(LogicalOpPtr input, Expr& subquery_expr) {
  LogicalOpPtr subquery = clone_tree(*subquery_expr.subquery);
  const bool one_row = at_most_one_row(*subquery);
  DecorrelatedSubquery dependent = decorrelate(std::move(subquery), *input, registry_);
  LogicalOpPtr result = std::move(dependent.plan);
  if (!one_row) result = check_single_row(std::move(result), dependent.domain, registry_);
  // The value as the NULL-extended side of the join has it.
  const ColumnInfo info = registry_[subquery_expr.column];
  auto value = std::make_unique<MapOp>();
  value->estimated_rows = result->estimated_rows;
  ColumnId joined = registry_.add({info.type, true, info.name});
  value->computed.push_back({joined, make_column(subquery_expr.column, info.type, info.nullable)});
  value->children.push_back(std::move(result));
  subquery_expr.column = joined;
  auto join = std::make_unique<JoinOp>();
  join->type = JoinType::kLeftOuter;
  join->estimated_rows = input->estimated_rows;
  add_not_distinct_keys(*join, dependent.outer, dependent.domain, registry_);
  join->children.push_back(std::move(input));
  join->children.push_back(std::move(value));
  mark_null_extended(*join, registry_);
  return join;
}

// The magic set (N&K section 3.2): the distinct correlation values of the outer side, here
// computed by a copy of the outer input. A semi join with it keeps only the inner rows that
// some outer row uses, so the aggregate groups just those (TPC-H q17: the lineitems of a few
// hundred parts instead of all 200,000; q20, q2 alike). The copy is recomputed rather than
// shared: plans are trees.
LogicalOpPtr Unnester::reduce_to_magic_set(LogicalOpPtr body, const LogicalOp& input,
                                           const JoinOp& join, const AggregateOp& aggregate) {
  std::map<ColumnId, ColumnId> renamed;
  LogicalOpPtr outer_copy = clone_with_fresh_columns(input, registry_, renamed);
  auto domain = std::make_unique<AggregateOp>();
  auto reduce = std::make_unique<JoinOp>();
  reduce->type = JoinType::kSemi;
  reduce->estimated_rows = body->estimated_rows;
  const size_t first_key_group = aggregate.groups.size() - join.keys.size();
  for (size_t k = 0; k < join.keys.size(); ++k) {
    ExprPtr outer = join.keys[k].probe->clone();
    transform_expr(outer, [&](ExprPtr& node) {
      if (node->kind == ExprKind::kColumn) node->column = renamed.at(node->column);
    });
    ColumnId value = registry_.add({outer->type, outer->nullable, "correlation_value"});
    reduce->keys.push_back({aggregate.groups[first_key_group + k].expr->clone(),
                            make_column(value, outer->type, outer->nullable)});
    domain->groups.push_back({value, std::move(outer)});
  }
  domain->children.push_back(std::move(outer_copy));
  reduce->children.push_back(std::move(body));
  reduce->children.push_back(std::move(domain));
  return reduce;
}

}  // namespace

void unnest_subqueries(LogicalPlan& plan) {
  plan.root = Unnester(plan.registry).unnest(std::move(plan.root));
}

}  // namespace floe::plan
