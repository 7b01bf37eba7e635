// Cost-based join ordering of one region of inner joins (predicate_pushdown.cpp builds the
// operators). The problem is abstracted to leaves (with estimated rows) and predicates over
// leaf sets; the answer is a bushy join tree minimizing C_out, the sum of the estimated
// sizes of all intermediate results.
//  - Up to kMaxDpLeaves leaves: DPccp (Moerkotte & Neumann, VLDB 2006), dynamic programming
//    over the connected-subgraph/complement pairs of the join graph only, so no cross
//    products inside a connected component.
//  - Disconnected graphs: the components' best plans are joined by cross products, smallest
//    first.
//  - More leaves: GOO (Fegaras 1998), greedily joining the pair with the smallest result.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#include "engine/plan/cardinality_estimator.h"

namespace floe::plan {

using LeafSet = uint64_t;  // bit i = leaf i
constexpr size_t kMaxJoinLeaves = 64;
constexpr size_t kMaxDpLeaves = 12;

struct JoinPredicate {
  LeafSet leaves = 0;  // every leaf the predicate reads
  // An equality whose sides read the disjoint, non-empty leaf sets `left` and `right` can be
  // a hash-join key; `left_distinct`/`right_distinct` are the sides' distinct values.
  bool equality = false;
  LeafSet left = 0, right = 0;
  double left_distinct = 1, right_distinct = 1;
  PrimaryKeyColumn left_key, right_key;  // cardinality_estimator.h
  // Otherwise it filters the join result with this selectivity.
  double selectivity = 1;
};

struct JoinProblem {
  std::vector<double> leaf_rows;
  std::vector<JoinPredicate> predicates;
};

// What a join of the sub-plans over `a` and `b` applies: predicates over leaves of both.
struct JoinStep {
  std::vector<size_t> keys;     // predicate indexes usable as hash-join keys
  std::vector<size_t> filters;  // the others
};
JoinStep join_step(const JoinProblem& problem, LeafSet a, LeafSet b);

// A node of a join tree: a leaf or a join of two nodes.
struct JoinTreeNode {
  LeafSet leaves = 0;
  int leaf = -1;   // leaf index for leaf nodes
  int probe = -1;  // node indexes for joins; the build side has the fewer estimated rows
  int build = -1;
  double rows = 0;
  double cost = 0;  // C_out of the subtree
};

struct JoinTree {
  std::vector<JoinTreeNode> nodes;
  int root = -1;
};

// At most kMaxJoinLeaves leaves.
JoinTree order_joins(const JoinProblem& problem);

}  // namespace floe::plan
