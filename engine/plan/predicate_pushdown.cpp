// Predicate pushdown and join construction. A region of inner joins, filters and scans is
// flattened into its leaves (scans and whatever is not an inner join or filter, optimized on
// its own) and the conjuncts of all its predicates. Then:
//  - a conjunct over one scan becomes a ScanOp filter; over another single leaf, a FilterOp
//    right above it;
//  - join_order.h picks a bushy join tree from the leaves' estimated rows;
//  - equalities between the two inputs of a join become its hash-join keys; the input with
//    fewer estimated rows is the build side (children[1]);
//  - any other conjunct becomes a FilterOp right above the lowest join where all its
//    columns exist;
//  - semi and anti joins (EXISTS, IN, NOT EXISTS, NOT IN) over a region are reducers: one
//    whose outer side reads a single leaf, and whose subquery side is estimated smaller than
//    that leaf, filters the leaf before the joins (TPC-H q18: the few large orders before
//    the join with lineitem); the others stay on top of the region.
// Finally every operator's estimated_rows is filled (cardinality_estimator.h).
#include <algorithm>
#include <bit>
#include <map>

#include "engine/plan/cardinality_estimator.h"
#include "engine/plan/expression_utils.h"
#include "engine/plan/join_order.h"
#include "engine/plan/optimizer.h"
#include "storage/error.h"
#include "storage/stack_depth.h"

namespace floe::plan {

namespace {

LogicalOpPtr optimize_subtree(LogicalOpPtr op, CardinalityEstimator& estimator);

bool is_reducer(JoinType type) {
  return type == JoinType::kSemi || type == JoinType::kAnti || type == JoinType::kNullAwareAnti;
}

bool is_region_op(const LogicalOp& op) {
  if (op.kind == LogicalKind::kFilter || op.kind == LogicalKind::kScan) return true;
  if (op.kind != LogicalKind::kJoin) return false;
  JoinType type = static_cast<const JoinOp&>(op).type;
  return type == JoinType::kInner || is_reducer(type);
}

// Equal, or an equality written the other way round (a = b, b = a).
bool same_conjunct(const Expr& a, const Expr& b) {
  if (expr_equal(a, b)) return true;
  return a.kind == ExprKind::kCompare && b.kind == ExprKind::kCompare &&
         a.compare_op == CompareOp::kEqual && b.compare_op == CompareOp::kEqual &&
         expr_equal(*a.children[0], *b.children[1]) && expr_equal(*a.children[1], *b.children[0]);
}

// (A AND B) OR (A AND C) → A AND (B OR C), which exposes join keys and scan filters
// hidden in disjunctions (TPC-H Q19).
void factor_disjunction(ExprPtr predicate, std::vector<ExprPtr>& out) {
  if (predicate->kind != ExprKind::kOr) {
    out.push_back(std::move(predicate));
    return;
  }
  std::vector<std::vector<ExprPtr>> terms;
  for (ExprPtr& child : predicate->children) {
    terms.emplace_back();
    split_conjuncts(std::move(child), terms.back());
  }
  bool some_term_empty = false;
  for (size_t i = 0; i < terms[0].size();) {
    std::vector<size_t> matches;
    for (size_t t = 1; t < terms.size(); ++t) {
      auto match = std::find_if(terms[t].begin(), terms[t].end(),
                                [&](const ExprPtr& e) { return same_conjunct(*e, *terms[0][i]); });
      if (match == terms[t].end()) break;
      matches.push_back(static_cast<size_t>(match - terms[t].begin()));
    }
    if (matches.size() + 1 != terms.size()) {
      ++i;
      continue;
    }
    for (size_t t = 1; t < terms.size(); ++t) {
      terms[t].erase(terms[t].begin() + static_cast<std::ptrdiff_t>(matches[t - 1]));
      some_term_empty |= terms[t].empty();
    }
    out.push_back(std::move(terms[0][i]));
    terms[0].erase(terms[0].begin() + static_cast<std::ptrdiff_t>(i));
  }
  some_term_empty |= terms[0].empty();
  if (some_term_empty) return;  // A OR (A AND B) = A
  std::vector<ExprPtr> disjuncts;
  for (auto& term : terms) disjuncts.push_back(make_conjunction(std::move(term)));
  out.push_back(
      make_expr(ExprKind::kOr, SqlType::boolean(), std::move(disjuncts), predicate->position));
}

struct Conjunct {
  ExprPtr expr;
  LeafSet leaves = 0;  // the leaves whose columns it reads
};

class JoinRegion {
 public:
  JoinRegion(LogicalOpPtr root, CardinalityEstimator& estimator) : estimator_(estimator) {
    collect(std::move(root));
  }
  LogicalOpPtr build();

 private:
  void collect(LogicalOpPtr op);
  void classify();
  LeafSet leaves_of(const Expr& expr) const;
  JoinProblem make_problem();
  LogicalOpPtr build_tree(const JoinTree& tree, int node, const JoinProblem& problem);
  LogicalOpPtr add_filter(LogicalOpPtr op, const std::vector<size_t>& conjuncts);
  void add_implied_leaf_filters(size_t predicate);
  LeafSet outer_leaves_of(const JoinOp& reducer) const;
  void place_reducers_on_leaves();
  LogicalOpPtr apply(LogicalOpPtr reducer, LogicalOpPtr input);

  CardinalityEstimator& estimator_;
  std::vector<LogicalOpPtr> leaves_;
  std::vector<LogicalOpPtr> reducers_;  // semi/anti joins without their probe child
  std::vector<ExprPtr> predicates_;
  std::vector<Conjunct> conjuncts_;
  std::map<ColumnId, size_t> owner_;  // column -> leaf producing it
};

void JoinRegion::collect(LogicalOpPtr op) {
  check_stack_depth();
  switch (op->kind) {
    case LogicalKind::kFilter:
      split_conjuncts(std::move(static_cast<FilterOp&>(*op).predicate), predicates_);
      collect(std::move(op->children[0]));
      return;
    case LogicalKind::kJoin: {
      if (!is_region_op(*op)) {  // an outer or semi join is a leaf: nothing crosses it
        leaves_.push_back(optimize_subtree(std::move(op), estimator_));
        return;
      }
      auto& join = static_cast<JoinOp&>(*op);
      if (is_reducer(join.type)) {
        join.children[1] = optimize_subtree(std::move(join.children[1]), estimator_);
        LogicalOpPtr probe = std::move(join.children[0]);
        reducers_.push_back(std::move(op));
        collect(std::move(probe));
        return;
      }
      for (auto& key : join.keys) {
        auto equal = make_expr(ExprKind::kCompare, SqlType::boolean(), {});
        equal->children.push_back(std::move(key.probe));
        equal->children.push_back(std::move(key.build));
        equal->nullable = equal->children[0]->nullable || equal->children[1]->nullable;
        predicates_.push_back(std::move(equal));
      }
      split_conjuncts(std::move(join.residual), predicates_);
      collect(std::move(op->children[0]));
      collect(std::move(op->children[1]));
      return;
    }
    case LogicalKind::kScan: {
      auto& scan = static_cast<ScanOp&>(*op);
      for (ExprPtr& filter : scan.filters) predicates_.push_back(std::move(filter));
      scan.filters.clear();
      leaves_.push_back(std::move(op));
      return;
    }
    default:
      leaves_.push_back(optimize_subtree(std::move(op), estimator_));
      return;
  }
}

LeafSet JoinRegion::leaves_of(const Expr& expr) const {
  std::set<ColumnId> columns;
  collect_columns(expr, columns);
  LeafSet leaves = 0;
  for (ColumnId id : columns) {
    auto found = owner_.find(id);
    if (found != owner_.end()) leaves |= LeafSet{1} << found->second;
  }
  return leaves;
}

// Splits the predicates into conjuncts; those over one scan become its filters.
void JoinRegion::classify() {
  if (leaves_.size() > kMaxJoinLeaves)
    throw NotSupported("more than " + std::to_string(kMaxJoinLeaves) +
                       " tables joined in one query block");
  std::vector<ExprPtr> factored;
  for (ExprPtr& predicate : predicates_) factor_disjunction(std::move(predicate), factored);
  predicates_ = std::move(factored);
  for (size_t i = 0; i < leaves_.size(); ++i)
    for (ColumnId id : output_columns(*leaves_[i])) owner_[id] = i;
  for (size_t i = 0, count = predicates_.size(); i < count; ++i) add_implied_leaf_filters(i);
  for (ExprPtr& predicate : predicates_) {
    if (predicate->kind == ExprKind::kConstant && !predicate->constant.is_null() &&
        predicate->constant.as_bool())
      continue;  // TRUE
    Conjunct conjunct{std::move(predicate), 0};
    conjunct.leaves = leaves_of(*conjunct.expr);
    if (!conjunct.leaves) conjunct.leaves = 1;  // constant: filter the first leaf
    if (std::popcount(conjunct.leaves) == 1 &&
        leaves_[std::countr_zero(conjunct.leaves)]->kind == LogicalKind::kScan) {
      static_cast<ScanOp&>(*leaves_[std::countr_zero(conjunct.leaves)])
          .filters.push_back(std::move(conjunct.expr));
      continue;
    }
    conjuncts_.push_back(std::move(conjunct));
  }
  predicates_.clear();
}

LogicalOpPtr JoinRegion::add_filter(LogicalOpPtr op, const std::vector<size_t>& conjuncts) {
  if (conjuncts.empty()) return op;
  std::vector<ExprPtr> predicates;
  for (size_t i : conjuncts) predicates.push_back(std::move(conjuncts_[i].expr));
  auto filter = std::make_unique<FilterOp>();
  filter->predicate = make_conjunction(std::move(predicates));
  filter->children.push_back(std::move(op));
  return filter;
}

// Leaves with their own filters applied and estimated; conjuncts over several leaves become
// the problem's predicates (same indexes as conjuncts_).
JoinProblem JoinRegion::make_problem() {
  std::vector<Conjunct> single_leaf, multi_leaf;
  for (Conjunct& conjunct : conjuncts_)
    (std::popcount(conjunct.leaves) == 1 ? single_leaf : multi_leaf).push_back(std::move(conjunct));
  conjuncts_ = std::move(single_leaf);
  JoinProblem problem;
  for (size_t leaf = 0; leaf < leaves_.size(); ++leaf) {
    std::vector<size_t> own;
    for (size_t i = 0; i < conjuncts_.size(); ++i)
      if (conjuncts_[i].leaves == LeafSet{1} << leaf) own.push_back(i);
    leaves_[leaf] = add_filter(std::move(leaves_[leaf]), own);
  }
  place_reducers_on_leaves();
  for (LogicalOpPtr& leaf : leaves_) problem.leaf_rows.push_back(estimator_.estimate(*leaf));
  conjuncts_ = std::move(multi_leaf);
  auto rows_of = [&](LeafSet leaves) {
    double rows = 1;
    for (; leaves; leaves &= leaves - 1) rows *= problem.leaf_rows[std::countr_zero(leaves)];
    return rows;
  };
  for (const Conjunct& conjunct : conjuncts_) {
    const Expr& expr = *conjunct.expr;
    JoinPredicate predicate;
    predicate.leaves = conjunct.leaves;
    predicate.selectivity = estimator_.selectivity(expr, rows_of(conjunct.leaves));
    if (expr.kind == ExprKind::kCompare && expr.compare_op == CompareOp::kEqual) {
      predicate.left = leaves_of(*expr.children[0]);
      predicate.right = leaves_of(*expr.children[1]);
      predicate.equality = predicate.left && predicate.right && !(predicate.left & predicate.right);
      predicate.left_distinct =
          estimator_.distinct_values(*expr.children[0], rows_of(predicate.left));
      predicate.right_distinct =
          estimator_.distinct_values(*expr.children[1], rows_of(predicate.right));
      predicate.left_key = estimator_.primary_key_column(*expr.children[0]);
      predicate.right_key = estimator_.primary_key_column(*expr.children[1]);
    }
    problem.predicates.push_back(predicate);
  }
  return problem;
}

// A disjunction over several leaves implies, for each leaf that every disjunct restricts,
// the disjunction of those restrictions: (n1 = 'FRANCE' AND n2 = 'GERMANY') OR (n1 =
// 'GERMANY' AND n2 = 'FRANCE') implies n1 IN both and n2 IN both (TPC-H q7; q19 alike). The
// implied filters are added; the disjunction itself stays.
void JoinRegion::add_implied_leaf_filters(size_t index) {
  const Expr& predicate = *predicates_[index];
  if (predicate.kind != ExprKind::kOr || std::popcount(leaves_of(predicate)) < 2) return;
  std::map<size_t, std::vector<ExprPtr>> per_leaf;  // leaf -> one term per disjunct
  for (size_t d = 0; d < predicate.children.size(); ++d) {
    std::map<size_t, std::vector<ExprPtr>> restrictions;
    std::vector<ExprPtr> conjuncts;
    split_conjuncts(predicate.children[d]->clone(), conjuncts);
    for (ExprPtr& conjunct : conjuncts) {
      LeafSet leaves = leaves_of(*conjunct);
      if (std::popcount(leaves) == 1)
        restrictions[std::countr_zero(leaves)].push_back(std::move(conjunct));
    }
    for (auto& [leaf, terms] : restrictions)
      if (per_leaf[leaf].size() == d) per_leaf[leaf].push_back(make_conjunction(std::move(terms)));
  }
  for (auto& [leaf, terms] : per_leaf) {
    if (terms.size() != predicate.children.size()) continue;
    predicates_.push_back(
        make_expr(ExprKind::kOr, SqlType::boolean(), std::move(terms), predicate.position));
  }
}

LeafSet JoinRegion::outer_leaves_of(const JoinOp& reducer) const {
  LeafSet leaves = reducer.residual ? leaves_of(*reducer.residual) : 0;
  for (const JoinOp::KeyPair& key : reducer.keys) leaves |= leaves_of(*key.probe);
  return leaves;
}

LogicalOpPtr JoinRegion::apply(LogicalOpPtr reducer, LogicalOpPtr input) {
  reducer->children[0] = std::move(input);
  return reducer;
}

void JoinRegion::place_reducers_on_leaves() {
  for (LogicalOpPtr& reducer : reducers_) {
    LeafSet leaves = outer_leaves_of(static_cast<const JoinOp&>(*reducer));
    if (std::popcount(leaves) != 1) continue;
    LogicalOpPtr& leaf = leaves_[std::countr_zero(leaves)];
    if (estimator_.estimate(*reducer->children[1]) >= estimator_.estimate(*leaf)) continue;
    leaf = apply(std::move(reducer), std::move(leaf));
  }
}

LogicalOpPtr JoinRegion::build_tree(const JoinTree& tree, int index, const JoinProblem& problem) {
  check_stack_depth();
  const JoinTreeNode& node = tree.nodes[static_cast<size_t>(index)];
  if (node.leaf >= 0) return std::move(leaves_[static_cast<size_t>(node.leaf)]);
  const JoinTreeNode& probe = tree.nodes[static_cast<size_t>(node.probe)];
  const JoinTreeNode& build = tree.nodes[static_cast<size_t>(node.build)];
  JoinStep step = join_step(problem, probe.leaves, build.leaves);
  auto join = std::make_unique<JoinOp>();
  for (size_t key : step.keys) {
    ExprPtr& expr = conjuncts_[key].expr;
    bool left_probes = (problem.predicates[key].left & ~probe.leaves) == 0;
    ExprPtr& probe_side = expr->children[left_probes ? 0 : 1];
    ExprPtr& build_side = expr->children[left_probes ? 1 : 0];
    join->keys.push_back({std::move(probe_side), std::move(build_side)});
    expr.reset();
  }
  join->children.push_back(build_tree(tree, node.probe, problem));
  join->children.push_back(build_tree(tree, node.build, problem));
  return add_filter(std::move(join), step.filters);
}

LogicalOpPtr JoinRegion::build() {
  classify();
  JoinProblem problem = make_problem();
  JoinTree tree = order_joins(problem);
  LogicalOpPtr root = build_tree(tree, tree.root, problem);
  // The remaining reducers, innermost first.
  for (auto reducer = reducers_.rbegin(); reducer != reducers_.rend(); ++reducer)
    if (*reducer) root = apply(std::move(*reducer), std::move(root));
  return root;
}

LogicalOpPtr optimize_subtree(LogicalOpPtr op, CardinalityEstimator& estimator) {
  check_stack_depth();
  if (is_region_op(*op)) return JoinRegion(std::move(op), estimator).build();
  for (LogicalOpPtr& child : op->children) child = optimize_subtree(std::move(child), estimator);
  return op;
}

}  // namespace

void push_down_predicates(LogicalPlan& plan) {
  CardinalityEstimator estimator;
  plan.root = optimize_subtree(std::move(plan.root), estimator);
  estimator.estimate(*plan.root);
}

}  // namespace floe::plan
