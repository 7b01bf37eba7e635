#include "engine/plan/join_order.h"

#include <algorithm>
#include <bit>
#include <unordered_map>

#include "engine/plan/cardinality_estimator.h"

namespace floe::plan {

namespace {

bool is_subset(LeafSet a, LeafSet b) {
  return (a & ~b) == 0;
}
LeafSet leaf_set(size_t leaf) {
  return LeafSet{1} << leaf;
}
// Leaves 0..leaf (the paper's B_i).
LeafSet up_to(size_t leaf) {
  return leaf + 1 == kMaxJoinLeaves ? ~LeafSet{0} : leaf_set(leaf + 1) - 1;
}

// The best plan found for one leaf set: a leaf (left = right = 0) or a join of two sets.
struct SubPlan {
  double rows = 0;
  double cost = 0;
  LeafSet left = 0;
  LeafSet right = 0;
};

class JoinOrderer {
 public:
  explicit JoinOrderer(const JoinProblem& problem);
  JoinTree run();

 private:
  LeafSet neighbors(LeafSet set) const;
  void consider(LeafSet a, LeafSet b);
  void dpccp();
  void enumerate_csg_rec(LeafSet set, LeafSet excluded, std::vector<LeafSet>& out) const;
  void enumerate_cmp(LeafSet set, std::vector<LeafSet>& out) const;
  std::vector<LeafSet> components() const;
  std::vector<LeafSet> greedy();
  int emit(LeafSet set, JoinTree& tree) const;

  const JoinProblem& problem_;
  size_t leaf_count_;
  std::vector<LeafSet> adjacent_;  // join-graph edges: equalities between two single leaves
  std::unordered_map<LeafSet, SubPlan> best_;
};

JoinOrderer::JoinOrderer(const JoinProblem& problem)
    : problem_(problem), leaf_count_(problem.leaf_rows.size()), adjacent_(leaf_count_, 0) {
  for (const JoinPredicate& predicate : problem.predicates) {
    if (!predicate.equality || std::popcount(predicate.left) != 1 ||
        std::popcount(predicate.right) != 1)
      continue;
    adjacent_[std::countr_zero(predicate.left)] |= predicate.right;
    adjacent_[std::countr_zero(predicate.right)] |= predicate.left;
  }
  for (size_t i = 0; i < leaf_count_; ++i)
    best_[leaf_set(i)] = SubPlan{std::max(1.0, problem.leaf_rows[i]), 0, 0, 0};
}

LeafSet JoinOrderer::neighbors(LeafSet set) const {
  LeafSet out = 0;
  for (LeafSet rest = set; rest; rest &= rest - 1) out |= adjacent_[std::countr_zero(rest)];
  return out & ~set;
}

// Keeps the cheaper of the known plan for a ∪ b and the join of the best plans for a and b.
void JoinOrderer::consider(LeafSet a, LeafSet b) {
  const SubPlan& left = best_.at(a);
  const SubPlan& right = best_.at(b);
  JoinStep step = join_step(problem_, a, b);
  double rows = left.rows * right.rows;
  if (!step.keys.empty()) {
    std::vector<double> left_distinct, right_distinct;
    std::vector<PrimaryKeyColumn> left_key, right_key;
    for (size_t key : step.keys) {
      const JoinPredicate& predicate = problem_.predicates[key];
      bool left_in_a = is_subset(predicate.left, a);
      left_distinct.push_back(left_in_a ? predicate.left_distinct : predicate.right_distinct);
      right_distinct.push_back(left_in_a ? predicate.right_distinct : predicate.left_distinct);
      left_key.push_back(left_in_a ? predicate.left_key : predicate.right_key);
      right_key.push_back(left_in_a ? predicate.right_key : predicate.left_key);
    }
    JoinKeyDistinct distinct =
        join_key_distinct({std::move(left_distinct), left_key, left.rows},
                          {std::move(right_distinct), right_key, right.rows});
    rows = equi_join_rows(left.rows, right.rows, distinct.left, distinct.right);
  }
  for (size_t filter : step.filters) rows *= problem_.predicates[filter].selectivity;
  rows = std::max(1.0, rows);
  SubPlan plan{rows, rows + left.cost + right.cost, a, b};
  auto [found, inserted] = best_.try_emplace(a | b, plan);
  if (!inserted && plan.cost < found->second.cost) found->second = plan;
}

// EnumerateCsgRec (paper, Fig. 5): connected supersets of `set` grown through neighbors not
// in `excluded`.
void JoinOrderer::enumerate_csg_rec(LeafSet set, LeafSet excluded,
                                    std::vector<LeafSet>& out) const {
  LeafSet grow = neighbors(set) & ~excluded;
  for (LeafSet subset = grow; subset; subset = (subset - 1) & grow) out.push_back(set | subset);
  for (LeafSet subset = grow; subset; subset = (subset - 1) & grow)
    enumerate_csg_rec(set | subset, excluded | grow, out);
}

// EnumerateCmp (paper, Fig. 6): connected complements of `set` adjacent to it, each pair
// produced once.
void JoinOrderer::enumerate_cmp(LeafSet set, std::vector<LeafSet>& out) const {
  LeafSet excluded = up_to(static_cast<size_t>(std::countr_zero(set))) | set;
  LeafSet start = neighbors(set) & ~excluded;
  for (int i = 63 - std::countl_zero(start); i >= 0; --i) {
    if (!(start & leaf_set(static_cast<size_t>(i)))) continue;
    out.push_back(leaf_set(static_cast<size_t>(i)));
    enumerate_csg_rec(leaf_set(static_cast<size_t>(i)),
                      excluded | (up_to(static_cast<size_t>(i)) & start), out);
  }
}

// DPccp (paper, Fig. 4). The csg-cmp pairs are processed by increasing size of their union,
// so both halves' best plans are final whatever the node numbering.
void JoinOrderer::dpccp() {
  std::vector<std::pair<LeafSet, LeafSet>> pairs;
  std::vector<LeafSet> subgraphs, complements;
  for (size_t i = leaf_count_; i-- > 0;) {
    subgraphs.assign(1, leaf_set(i));
    enumerate_csg_rec(leaf_set(i), up_to(i), subgraphs);
    for (LeafSet subgraph : subgraphs) {
      complements.clear();
      enumerate_cmp(subgraph, complements);
      for (LeafSet complement : complements) pairs.emplace_back(subgraph, complement);
    }
  }
  std::stable_sort(pairs.begin(), pairs.end(), [](const auto& x, const auto& y) {
    return std::popcount(x.first | x.second) < std::popcount(y.first | y.second);
  });
  for (auto [subgraph, complement] : pairs) consider(subgraph, complement);
}

std::vector<LeafSet> JoinOrderer::components() const {
  std::vector<LeafSet> out;
  LeafSet seen = 0;
  for (size_t i = 0; i < leaf_count_; ++i) {
    if (seen & leaf_set(i)) continue;
    LeafSet component = leaf_set(i);
    for (LeafSet frontier = component; frontier;) {
      frontier = neighbors(component);
      component |= frontier;
    }
    seen |= component;
    out.push_back(component);
  }
  return out;
}

// GOO: joins the connected pair of plans with the smallest result until no pair is
// connected; returns the remaining plans (one per component).
std::vector<LeafSet> JoinOrderer::greedy() {
  std::vector<LeafSet> plans;
  for (size_t i = 0; i < leaf_count_; ++i) plans.push_back(leaf_set(i));
  while (true) {
    size_t best_a = 0, best_b = 0;
    double best_rows = 0;
    for (size_t a = 0; a < plans.size(); ++a)
      for (size_t b = a + 1; b < plans.size(); ++b) {
        if (!(neighbors(plans[a]) & plans[b])) continue;
        consider(plans[a], plans[b]);
        double rows = best_.at(plans[a] | plans[b]).rows;
        if (best_b == 0 || rows < best_rows)
          std::tie(best_a, best_b, best_rows) = std::tie(a, b, rows);
      }
    if (best_b == 0) return plans;
    plans[best_a] |= plans[best_b];
    plans.erase(plans.begin() + static_cast<std::ptrdiff_t>(best_b));
  }
}

int JoinOrderer::emit(LeafSet set, JoinTree& tree) const {
  const SubPlan& plan = best_.at(set);
  JoinTreeNode node;
  node.leaves = set;
  node.rows = plan.rows;
  node.cost = plan.cost;
  if (!plan.left) {
    node.leaf = std::countr_zero(set);
  } else {
    int left = emit(plan.left, tree), right = emit(plan.right, tree);
    bool right_builds =
        tree.nodes[static_cast<size_t>(right)].rows <= tree.nodes[static_cast<size_t>(left)].rows;
    node.probe = right_builds ? left : right;
    node.build = right_builds ? right : left;
  }
  tree.nodes.push_back(node);
  return static_cast<int>(tree.nodes.size() - 1);
}

JoinTree JoinOrderer::run() {
  std::vector<LeafSet> parts;
  if (leaf_count_ <= kMaxDpLeaves) {
    dpccp();
    parts = components();
  } else {
    parts = greedy();
  }
  // Components are joined by cross products, smallest first.
  std::stable_sort(parts.begin(), parts.end(),
                   [&](LeafSet a, LeafSet b) { return best_.at(a).rows < best_.at(b).rows; });
  LeafSet joined = parts[0];
  for (size_t i = 1; i < parts.size(); ++i) {
    consider(joined, parts[i]);
    joined |= parts[i];
  }
  JoinTree tree;
  tree.root = emit(joined, tree);
  return tree;
}

}  // namespace

JoinStep join_step(const JoinProblem& problem, LeafSet a, LeafSet b) {
  JoinStep step;
  for (size_t i = 0; i < problem.predicates.size(); ++i) {
    const JoinPredicate& predicate = problem.predicates[i];
    if (!is_subset(predicate.leaves, a | b) || is_subset(predicate.leaves, a) ||
        is_subset(predicate.leaves, b))
      continue;
    bool key =
        predicate.equality && ((is_subset(predicate.left, a) && is_subset(predicate.right, b)) ||
                               (is_subset(predicate.left, b) && is_subset(predicate.right, a)));
    (key ? step.keys : step.filters).push_back(i);
  }
  return step;
}

JoinTree order_joins(const JoinProblem& problem) {
  return JoinOrderer(problem).run();
}

}  // namespace floe::plan
