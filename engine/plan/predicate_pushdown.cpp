// Predicate pushdown and join construction. A region of inner joins, filters and scans is
// flattened into its leaves and the conjuncts of all its predicates. Then:
//  - a conjunct over one scan becomes a ScanOp filter;
//  - the leaves are joined left-deep in FROM order, except that the next leaf is the first
//    one connected to the joined ones by an equality (a cross product only when none is);
//  - equalities between the joined side and the new leaf become hash-join keys; the side
//    with fewer estimated rows is the build side (children[1]);
//  - any other conjunct becomes a FilterOp right above the first join where all its
//    columns exist.
#include <algorithm>
#include <map>

#include "engine/plan/expression_utils.h"
#include "engine/plan/optimizer.h"

namespace floe::plan {

namespace {

LogicalOpPtr optimize_subtree(LogicalOpPtr op);

bool is_region_op(const LogicalOp& op) {
  if (op.kind == LogicalKind::kFilter || op.kind == LogicalKind::kScan) return true;
  return op.kind == LogicalKind::kJoin && static_cast<const JoinOp&>(op).type == JoinType::kInner;
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
  std::set<size_t> leaves;  // indexes of the leaves whose columns it reads
};

class JoinRegion {
 public:
  explicit JoinRegion(LogicalOpPtr root) { collect(std::move(root)); }
  LogicalOpPtr build();

 private:
  void collect(LogicalOpPtr op);
  void classify();
  bool is_key_for(const Conjunct& conjunct, const std::set<size_t>& joined, size_t leaf) const;
  LogicalOpPtr apply_filters(LogicalOpPtr op, const std::set<size_t>& available);

  std::vector<LogicalOpPtr> leaves_;
  std::vector<ExprPtr> predicates_;
  std::vector<Conjunct> conjuncts_;
};

void JoinRegion::collect(LogicalOpPtr op) {
  switch (op->kind) {
    case LogicalKind::kFilter:
      split_conjuncts(std::move(static_cast<FilterOp&>(*op).predicate), predicates_);
      collect(std::move(op->children[0]));
      return;
    case LogicalKind::kJoin: {
      if (!is_region_op(*op)) {  // an outer or semi join is a leaf: nothing crosses it
        leaves_.push_back(optimize_subtree(std::move(op)));
        return;
      }
      auto& join = static_cast<JoinOp&>(*op);
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
      leaves_.push_back(optimize_subtree(std::move(op)));
      return;
  }
}

void JoinRegion::classify() {
  std::vector<ExprPtr> factored;
  for (ExprPtr& predicate : predicates_) factor_disjunction(std::move(predicate), factored);
  predicates_ = std::move(factored);
  std::map<ColumnId, size_t> owner;
  for (size_t i = 0; i < leaves_.size(); ++i)
    for (ColumnId id : output_columns(*leaves_[i])) owner[id] = i;
  for (ExprPtr& predicate : predicates_) {
    if (predicate->kind == ExprKind::kConstant && !predicate->constant.is_null() &&
        predicate->constant.as_bool())
      continue;  // TRUE
    Conjunct conjunct{std::move(predicate), {}};
    std::set<ColumnId> columns;
    collect_columns(*conjunct.expr, columns);
    for (ColumnId id : columns)
      if (owner.count(id)) conjunct.leaves.insert(owner[id]);
    if (conjunct.leaves.empty()) conjunct.leaves.insert(0);
    if (conjunct.leaves.size() == 1 &&
        leaves_[*conjunct.leaves.begin()]->kind == LogicalKind::kScan) {
      static_cast<ScanOp&>(*leaves_[*conjunct.leaves.begin()])
          .filters.push_back(std::move(conjunct.expr));
      continue;
    }
    conjuncts_.push_back(std::move(conjunct));
  }
  predicates_.clear();
}

bool JoinRegion::is_key_for(const Conjunct& conjunct, const std::set<size_t>& joined,
                            size_t leaf) const {
  const Expr& expr = *conjunct.expr;
  if (!expr.children.size() || expr.kind != ExprKind::kCompare ||
      expr.compare_op != CompareOp::kEqual)
    return false;
  if (!conjunct.leaves.count(leaf)) return false;
  for (size_t l : conjunct.leaves)
    if (l != leaf && !joined.count(l)) return false;
  // Each side must read only one of the two inputs.
  auto side_of = [&](const Expr& side) -> int {
    std::set<ColumnId> columns;
    collect_columns(side, columns);
    if (columns.empty()) return -1;
    std::set<ColumnId> leaf_columns;
    for (ColumnId id : output_columns(*leaves_[leaf])) leaf_columns.insert(id);
    bool all_leaf = true, none_leaf = true;
    for (ColumnId id : columns) (leaf_columns.count(id) ? none_leaf : all_leaf) = false;
    return all_leaf ? 1 : none_leaf ? 0 : -1;
  };
  int left = side_of(*expr.children[0]), right = side_of(*expr.children[1]);
  return left >= 0 && right >= 0 && left != right;
}

LogicalOpPtr JoinRegion::apply_filters(LogicalOpPtr op, const std::set<size_t>& available) {
  std::vector<ExprPtr> ready;
  for (Conjunct& conjunct : conjuncts_) {
    if (!conjunct.expr) continue;
    if (std::includes(available.begin(), available.end(), conjunct.leaves.begin(),
                      conjunct.leaves.end()))
      ready.push_back(std::move(conjunct.expr));
  }
  if (ready.empty()) return op;
  auto filter = std::make_unique<FilterOp>();
  filter->estimated_rows = op->estimated_rows;
  filter->predicate = make_conjunction(std::move(ready));
  filter->children.push_back(std::move(op));
  return filter;
}

LogicalOpPtr JoinRegion::build() {
  classify();
  std::set<size_t> joined{0};
  LogicalOpPtr current = apply_filters(std::move(leaves_[0]), joined);
  std::vector<bool> used(leaves_.size(), false);
  used[0] = true;
  for (size_t step = 1; step < leaves_.size(); ++step) {
    size_t next = leaves_.size();
    for (size_t i = 0; i < leaves_.size() && next == leaves_.size(); ++i) {
      if (used[i]) continue;
      for (const Conjunct& conjunct : conjuncts_)
        if (conjunct.expr && is_key_for(conjunct, joined, i)) next = i;
    }
    if (next == leaves_.size()) next = std::find(used.begin(), used.end(), false) - used.begin();
    used[next] = true;

    auto join = std::make_unique<JoinOp>();
    std::set<ColumnId> leaf_columns;
    for (ColumnId id : output_columns(*leaves_[next])) leaf_columns.insert(id);
    double current_rows = current->estimated_rows, leaf_rows = leaves_[next]->estimated_rows;
    bool leaf_builds = leaf_rows <= current_rows;
    for (Conjunct& conjunct : conjuncts_) {
      if (!conjunct.expr || !is_key_for(conjunct, joined, next)) continue;
      ExprPtr a = std::move(conjunct.expr->children[0]), b = std::move(conjunct.expr->children[1]);
      std::set<ColumnId> a_columns;
      collect_columns(*a, a_columns);
      bool a_on_leaf = leaf_columns.count(*a_columns.begin()) > 0;
      ExprPtr& leaf_side = a_on_leaf ? a : b;
      ExprPtr& joined_side = a_on_leaf ? b : a;
      if (leaf_builds)
        join->keys.push_back({std::move(joined_side), std::move(leaf_side)});
      else
        join->keys.push_back({std::move(leaf_side), std::move(joined_side)});
      conjunct.expr.reset();
    }
    join->estimated_rows =
        join->keys.empty() ? current_rows * leaf_rows : std::max(current_rows, leaf_rows);
    if (leaf_builds) {
      join->children.push_back(std::move(current));
      join->children.push_back(std::move(leaves_[next]));
    } else {
      join->children.push_back(std::move(leaves_[next]));
      join->children.push_back(std::move(current));
    }
    joined.insert(next);
    current = apply_filters(std::move(join), joined);
  }
  return current;
}

LogicalOpPtr optimize_subtree(LogicalOpPtr op) {
  if (is_region_op(*op)) return JoinRegion(std::move(op)).build();
  for (LogicalOpPtr& child : op->children) child = optimize_subtree(std::move(child));
  return op;
}

}  // namespace

void push_down_predicates(LogicalPlan& plan) {
  plan.root = optimize_subtree(std::move(plan.root));
}

}  // namespace floe::plan
