// Streaming LIMIT/OFFSET: one shared counter per operator (atomic, so that several workers
// may run the pipeline). Tuples before `offset` are dropped; once `offset + limit` tuples
// have passed, the pipeline function returns, and the executor starts no further morsels.
#include "codegen/translator.h"
#include "storage/stack_depth.h"

namespace floe::codegen {
namespace {

class Limit : public Consumer {
 public:
  Limit(PipelineEnv& env, const plan::LimitOp& limit, Consumer& next)
      : env_(env), limit_(limit), next_(next) {
    slot_ = env.operator_slot(limit);
    for (const auto& check : env.description->limits)
      if (check.counter_slot == slot_) end_ = check.end;
  }

  void consume(Tuple& tuple, llvm::BasicBlock* next) override {
    check_stack_depth();  // consumers of one pipeline call each other
    auto& b = env_.builder();
    auto* function = env_.codegen.function();
    auto* counter = env_.slot_pointer(slot_);
    auto* seen = b.CreateAtomicRMW(llvm::AtomicRMWInst::Add, counter, b.getInt64(1),
                                   llvm::MaybeAlign(8), llvm::AtomicOrdering::Monotonic);
    auto* open = llvm::BasicBlock::Create(b.getContext(), "limit_open", function);
    auto* finished = llvm::BasicBlock::Create(b.getContext(), "limit_reached", function);
    b.CreateCondBr(b.CreateICmpUGE(seen, b.getInt64(end_)), finished, open);
    b.SetInsertPoint(finished);
    b.CreateRet(b.getTrue());

    b.SetInsertPoint(open);
    auto* emit = llvm::BasicBlock::Create(b.getContext(), "limit_emit", function);
    b.CreateCondBr(b.CreateICmpULT(seen, b.getInt64(limit_.offset)), next, emit);
    b.SetInsertPoint(emit);
    next_.consume(tuple, next);
    // The last tuple the limit lets through ends the pipeline right away.
    auto* last = b.CreateICmpUGE(b.CreateAdd(seen, b.getInt64(1)), b.getInt64(end_));
    auto* more = llvm::BasicBlock::Create(b.getContext(), "limit_more", function);
    b.CreateCondBr(last, finished, more);
    b.SetInsertPoint(more);
  }

 private:
  PipelineEnv& env_;
  const plan::LimitOp& limit_;
  Consumer& next_;
  uint32_t slot_ = 0;
  uint64_t end_ = 0;
};

}  // namespace

std::unique_ptr<Consumer> make_limit(PipelineEnv& env, const plan::LimitOp& limit, Consumer& next) {
  return std::make_unique<Limit>(env, limit, next);
}

}  // namespace floe::codegen
