#include <gtest/gtest.h>

#include <bit>
#include <map>
#include <random>

#include "engine/plan/cardinality_estimator.h"
#include "engine/plan/join_order.h"

namespace floe::plan {
namespace {

JoinPredicate equality(size_t a, size_t b, double a_distinct, double b_distinct) {
  JoinPredicate predicate;
  predicate.left = LeafSet{1} << a;
  predicate.right = LeafSet{1} << b;
  predicate.leaves = predicate.left | predicate.right;
  predicate.equality = true;
  predicate.left_distinct = a_distinct;
  predicate.right_distinct = b_distinct;
  predicate.selectivity = 1 / std::max(a_distinct, b_distinct);
  return predicate;
}

// "(0 (1 2))": leaves by index, joins as "(probe build)".
std::string shape(const JoinTree& tree, int node) {
  const JoinTreeNode& n = tree.nodes[static_cast<size_t>(node)];
  if (n.leaf >= 0) return std::to_string(n.leaf);
  return "(" + shape(tree, n.probe) + " " + shape(tree, n.build) + ")";
}
std::string shape(const JoinTree& tree) {
  return shape(tree, tree.root);
}

bool connected(const JoinProblem& problem, LeafSet a, LeafSet b) {
  return !join_step(problem, a, b).keys.empty();
}

// Reference: the cheapest C_out over all bushy trees without cross products, by plain
// dynamic programming over every split of every leaf set (no csg-cmp enumeration).
double brute_force_cost(const JoinProblem& problem) {
  size_t n = problem.leaf_rows.size();
  std::map<LeafSet, std::pair<double, double>> best;  // set -> (rows, cost)
  for (size_t i = 0; i < n; ++i) best[LeafSet{1} << i] = {problem.leaf_rows[i], 0};
  for (LeafSet set = 1; set < (LeafSet{1} << n); ++set) {
    if (std::popcount(set) < 2) continue;
    for (LeafSet a = (set - 1) & set; a; a = (a - 1) & set) {
      LeafSet b = set & ~a;
      if (!best.count(a) || !best.count(b) || !connected(problem, a, b)) continue;
      auto [a_rows, a_cost] = best[a];
      auto [b_rows, b_cost] = best[b];
      JoinStep step = join_step(problem, a, b);
      std::vector<double> a_distinct, b_distinct;
      for (size_t key : step.keys) {
        const JoinPredicate& p = problem.predicates[key];
        bool left_in_a = (p.left & ~a) == 0;
        a_distinct.push_back(left_in_a ? p.left_distinct : p.right_distinct);
        b_distinct.push_back(left_in_a ? p.right_distinct : p.left_distinct);
      }
      double rows = std::max(1.0, equi_join_rows(a_rows, b_rows, combined_distinct(a_distinct),
                                                 combined_distinct(b_distinct)));
      double cost = rows + a_cost + b_cost;
      if (!best.count(set) || cost < best[set].second) best[set] = {rows, cost};
    }
  }
  return best.at((LeafSet{1} << n) - 1).second;
}

TEST(JoinOrderTest, ChainJoinsTheSelectivePairFirst) {
  // 0 - 1 - 2 - 3: 1 ⋈ 2 is tiny (2 has 10 rows, all matching few of 1's keys).
  JoinProblem problem;
  problem.leaf_rows = {1000, 1000, 10, 5000};
  problem.predicates = {equality(0, 1, 1000, 1000), equality(1, 2, 1000, 10),
                        equality(2, 3, 10, 100)};
  JoinTree tree = order_joins(problem);
  // (1 ⋈ 2) = 10 rows, ⋈ 0 = 10 rows, ⋈ 3 = 500 rows: C_out 520. The smaller side builds.
  EXPECT_EQ(shape(tree), "(3 (0 (1 2)))");
  EXPECT_DOUBLE_EQ(tree.nodes[static_cast<size_t>(tree.root)].cost, 520);
  EXPECT_DOUBLE_EQ(tree.nodes[static_cast<size_t>(tree.root)].cost, brute_force_cost(problem));
}

TEST(JoinOrderTest, StarJoinsTheMostSelectiveDimensionFirst) {
  // Fact 0 with dimensions 1..3; dimension 1 keeps 2 of 100 keys, 2 keeps 50 of 100.
  JoinProblem problem;
  problem.leaf_rows = {1e6, 2, 50, 1000};
  problem.predicates = {equality(0, 3, 1000, 1000), equality(0, 2, 100, 50),
                        equality(0, 1, 100, 2)};
  JoinTree tree = order_joins(problem);
  EXPECT_EQ(shape(tree), "(((0 1) 2) 3)");
  // 2e4 + 1e4 + 1e4.
  EXPECT_DOUBLE_EQ(tree.nodes[static_cast<size_t>(tree.root)].cost, 4e4);
}

TEST(JoinOrderTest, MatchesExhaustiveSearchOnRandomGraphs) {
  std::mt19937_64 random(42);
  for (int round = 0; round < 40; ++round) {
    JoinProblem problem;
    size_t n = 2 + random() % 7;
    for (size_t i = 0; i < n; ++i)
      problem.leaf_rows.push_back(1 + static_cast<double>(random() % 10000));
    // A random spanning tree plus a few extra edges (cycles).
    for (size_t i = 1; i < n; ++i) {
      size_t j = random() % i;
      problem.predicates.push_back(equality(i, j, 1 + static_cast<double>(random() % 1000),
                                            1 + static_cast<double>(random() % 1000)));
    }
    for (size_t extra = random() % 3; extra > 0; --extra) {
      size_t a = random() % n, b = random() % n;
      if (a != b) problem.predicates.push_back(equality(a, b, 10, 20));
    }
    JoinTree tree = order_joins(problem);
    EXPECT_EQ(tree.nodes.size(), 2 * n - 1);
    EXPECT_NEAR(tree.nodes[static_cast<size_t>(tree.root)].cost, brute_force_cost(problem),
                1e-6 * brute_force_cost(problem))
        << "round " << round;
  }
}

TEST(JoinOrderTest, GreedyFallbackForManyLeavesAvoidsCrossProducts) {
  // A chain of 15 leaves, more than DPccp's limit. Every join multiplies rows (10 distinct
  // keys) except 7 ⋈ 8 of two 10-row leaves, the smallest result, which is joined first.
  JoinProblem problem;
  for (size_t i = 0; i < 15; ++i) problem.leaf_rows.push_back(i == 7 || i == 8 ? 10 : 1000);
  for (size_t i = 0; i + 1 < 15; ++i) problem.predicates.push_back(equality(i, i + 1, 10, 10));
  JoinTree tree = order_joins(problem);
  ASSERT_EQ(tree.nodes.size(), 29u);
  EXPECT_EQ(tree.nodes[static_cast<size_t>(tree.root)].leaves, (LeafSet{1} << 15) - 1);
  bool found_first_pair = false;
  for (const JoinTreeNode& node : tree.nodes) {
    if (node.leaf >= 0) continue;
    LeafSet probe = tree.nodes[static_cast<size_t>(node.probe)].leaves;
    LeafSet build = tree.nodes[static_cast<size_t>(node.build)].leaves;
    EXPECT_TRUE(connected(problem, probe, build)) << "cross product";
    EXPECT_LE(tree.nodes[static_cast<size_t>(node.build)].rows,
              tree.nodes[static_cast<size_t>(node.probe)].rows);
    found_first_pair |= (probe | build) == (LeafSet{3} << 7);
  }
  EXPECT_TRUE(found_first_pair);
}

TEST(JoinOrderTest, DisconnectedComponentsAreCrossedSmallestFirst) {
  // Components {0, 1} (100 rows joined), {2} (5 rows) and {3} (50 rows).
  JoinProblem problem;
  problem.leaf_rows = {100, 100, 5, 50};
  problem.predicates = {equality(0, 1, 100, 100)};
  JoinTree tree = order_joins(problem);
  EXPECT_EQ(shape(tree), "((3 2) (0 1))");
  const JoinTreeNode& root = tree.nodes[static_cast<size_t>(tree.root)];
  EXPECT_DOUBLE_EQ(root.rows, 100 * 5 * 50);
  EXPECT_TRUE(join_step(problem, LeafSet{3}, LeafSet{12}).keys.empty());
}

TEST(JoinOrderTest, JoinStepSplitsKeysFromFilters) {
  JoinProblem problem;
  problem.leaf_rows = {10, 10, 10};
  problem.predicates = {equality(0, 1, 10, 10)};
  JoinPredicate three_way;  // e.g. a.x + b.y > c.z
  three_way.leaves = 7;
  three_way.selectivity = 0.5;
  problem.predicates.push_back(three_way);
  JoinStep step = join_step(problem, 1, 2);
  EXPECT_EQ(step.keys, std::vector<size_t>{0});
  EXPECT_TRUE(step.filters.empty());
  step = join_step(problem, 3, 4);
  EXPECT_TRUE(step.keys.empty());
  EXPECT_EQ(step.filters, std::vector<size_t>{1});
}

}  // namespace
}  // namespace floe::plan
