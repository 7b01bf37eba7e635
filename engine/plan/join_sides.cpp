// Semi and anti joins keep the subquery side in the hash table, which is the wrong choice
// when the outer side is the smaller one (TPC-H q4: a few thousand orders against millions of
// lineitems). Then the sides are swapped: the right semi / right anti join builds the outer
// side, the probe marks the build rows it matches, and a pipeline after the probe emits the
// marked (semi) or unmarked (anti) ones.
#include <utility>

#include "engine/plan/optimizer.h"

namespace floe::plan {

namespace {

void choose_sides(LogicalOp& op) {
  for (LogicalOpPtr& child : op.children) choose_sides(*child);
  if (op.kind != LogicalKind::kJoin) return;
  auto& join = static_cast<JoinOp&>(op);
  if (join.type != JoinType::kSemi && join.type != JoinType::kAnti) return;
  if (join.children[1]->estimated_rows <= join.children[0]->estimated_rows) return;
  join.type = join.type == JoinType::kSemi ? JoinType::kRightSemi : JoinType::kRightAnti;
  std::swap(join.children[0], join.children[1]);
  for (JoinOp::KeyPair& key : join.keys) std::swap(key.probe, key.build);
}

}  // namespace

void choose_semi_join_sides(LogicalPlan& plan) {
  choose_sides(*plan.root);
}

}  // namespace floe::plan
