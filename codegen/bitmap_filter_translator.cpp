// Early filtering by the bitmaps of several joins (Barber et al., "Memory-Efficient Hash
// Joins", VLDB 2015, section 3.1) in the compiled engine: the joins and the place are
// engine/plan/bitmap_filter_joins.h's; a join takes part where the tuple already has its
// probe key columns. A tuple that some bitmap rules out goes no further, so it touches no
// join's array and no later operator's work. Later joins still probe as before.
#include "codegen/join_codegen.h"
#include "codegen/key_codegen.h"
#include "engine/plan/bitmap_filter_joins.h"
#include "storage/stack_depth.h"

namespace floe::codegen {

namespace {

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
  auto joins = plan::bitmap_filter_joins(pipeline, position, env.physical);
  if (joins.empty()) return nullptr;
  return std::make_unique<BitmapFilter>(env, std::move(joins), next);
}

}  // namespace floe::codegen
