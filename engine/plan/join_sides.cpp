// Build sides of the joins the join orderer does not place. Semi, anti and left outer joins
// keep their subquery / NULL-extended side in the hash table, which is the wrong choice when
// that side is the larger one (TPC-H q4: millions of lineitems against a few thousand orders;
// q13: 1.5 million orders against 150,000 customers). Then the sides are swapped: the right
// semi / right anti / right outer join builds the outer side, the probe marks the build rows
// it matches, and a pipeline after the probe emits the marked (semi) or unmarked (anti,
// outer) ones.
#include <optional>
#include <utility>

#include "engine/plan/optimizer.h"
#include "storage/stack_depth.h"

namespace floe::plan {

namespace {

std::optional<JoinType> swapped(JoinType type) {
  switch (type) {
    case JoinType::kSemi:
      return JoinType::kRightSemi;
    case JoinType::kAnti:
      return JoinType::kRightAnti;
    case JoinType::kLeftOuter:
      return JoinType::kRightOuter;
    default:
      return std::nullopt;
  }
}

void choose_sides(LogicalOp& op) {
  check_stack_depth();
  for (LogicalOpPtr& child : op.children) choose_sides(*child);
  if (op.kind != LogicalKind::kJoin) return;
  auto& join = static_cast<JoinOp&>(op);
  std::optional<JoinType> type = swapped(join.type);
  if (!type || join.children[1]->estimated_rows <= join.children[0]->estimated_rows) return;
  join.type = *type;
  std::swap(join.children[0], join.children[1]);
  for (JoinOp::KeyPair& key : join.keys) std::swap(key.probe, key.build);
}

}  // namespace

void choose_join_sides(LogicalPlan& plan) {
  choose_sides(*plan.root);
}

}  // namespace floe::plan
