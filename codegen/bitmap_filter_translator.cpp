// Early filtering by the bitmaps of several joins (Barber et al., "Memory-Efficient Hash
// Joins", VLDB 2015, section 3.1) in the compiled engine: before the first CHT/CAT join of a
// pipeline probes, the probe tuple is checked against the bitmap of every CHT/CAT join of the
// pipeline that drops probe rows without a match (inner, semi, right outer, right semi/anti)
// and whose probe keys are plain columns the tuple already has. A tuple that some bitmap
// rules out goes no further, so it touches no join's array and no later operator's work,
// whatever the join order. Later joins still probe as before (their bitmaps only filter).
// Plain column keys only: evaluating an expression early could raise an error on a row that
// an earlier operator drops.
#include "codegen/join_codegen.h"
#include "codegen/key_codegen.h"
#include "storage/stack_depth.h"

namespace floe::codegen {

namespace {

using plan::JoinType;

bool drops_unmatched_probe_rows(JoinType type) {
  return type == JoinType::kInner || type == JoinType::kSemi || type == JoinType::kRightOuter ||
         type == JoinType::kRightSemi || type == JoinType::kRightAnti;
}

bool plain_column_keys(const plan::JoinOp& join) {
  for (const auto& key : join.keys)
    if (key.probe->kind != plan::ExprKind::kColumn) return false;
  return !join.keys.empty();
}

class BitmapFilter : public Consumer {
 public:
  BitmapFilter(PipelineEnv& env, std::vector<const plan::JoinOp*> joins, Consumer& next)
      : env_(env), joins_(std::move(joins)), next_(next) {}

  void consume(Tuple& tuple, llvm::BasicBlock* next) override {
    check_stack_depth();  // consumers of one pipeline call each other
    auto& b = env_.builder();
    for (const plan::JoinOp* join : joins_) {
      bool available = true;
      for (const auto& key : join->keys) available = available && tuple.count(key.probe->column);
      if (!available) continue;
      // A NULL key matches nothing, and these joins drop unmatched probe rows.
      auto keys = compile_join_keys(env_, *join, false, tuple, next, join->keys.size());
      const Materialization& rows = env_.materialization(*join);
      auto* hash = hash_keys(env_, keys, join_key_types(*join));
      auto* pass = llvm::BasicBlock::Create(b.getContext(), "bitmap_pass", env_.codegen.function());
      b.CreateCondBr(emit_join_may_contain(env_, rows, hash, keys), pass, next);
      b.SetInsertPoint(pass);
    }
    next_.consume(tuple, next);
  }

 private:
  PipelineEnv& env_;
  std::vector<const plan::JoinOp*> joins_;
  Consumer& next_;
};

}  // namespace

std::unique_ptr<Consumer> make_bitmap_filter(PipelineEnv& env, const plan::Pipeline& pipeline,
                                             size_t position, Consumer& next) {
  std::vector<const plan::JoinOp*> joins;
  for (size_t k = position; k < pipeline.operators.size(); ++k) {
    const plan::LogicalOp& op = *pipeline.operators[k];
    // Rows dropped before these would change what they let through.
    if (op.kind == plan::LogicalKind::kLimit || op.kind == plan::LogicalKind::kUnionAll ||
        op.kind == plan::LogicalKind::kRepeat || op.kind == plan::LogicalKind::kTableFunction)
      break;
    if (op.kind != plan::LogicalKind::kJoin) continue;
    const auto& join = static_cast<const plan::JoinOp&>(op);
    if (env.materialization(join).join_table == plan::JoinTableKind::kChaining) continue;
    if (drops_unmatched_probe_rows(join.type) && plain_column_keys(join)) joins.push_back(&join);
  }
  // One join's probe reads its bitmap first anyway.
  if (joins.size() < 2) return nullptr;
  return std::make_unique<BitmapFilter>(env, std::move(joins), next);
}

}  // namespace floe::codegen
