// Filter: the tuple continues only when the predicate is TRUE.
#include "codegen/translator.h"
#include "storage/stack_depth.h"

namespace floe::codegen {
namespace {

class Filter : public Consumer {
 public:
  Filter(PipelineEnv& env, const plan::FilterOp& filter, Consumer& next)
      : env_(env), filter_(filter), next_(next) {}

  void consume(Tuple& tuple, llvm::BasicBlock* next) override {
    check_stack_depth();  // consumers of one pipeline call each other
    auto& b = env_.builder();
    auto* pass = env_.expressions.compile_predicate(*filter_.predicate, resolver_for(tuple));
    auto* keep = llvm::BasicBlock::Create(b.getContext(), "filter_pass", env_.codegen.function());
    b.CreateCondBr(pass, keep, next);
    b.SetInsertPoint(keep);
    next_.consume(tuple, next);
  }

 private:
  PipelineEnv& env_;
  const plan::FilterOp& filter_;
  Consumer& next_;
};

}  // namespace

std::unique_ptr<Consumer> make_filter(PipelineEnv& env, const plan::FilterOp& filter,
                                      Consumer& next) {
  return std::make_unique<Filter>(env, filter, next);
}

}  // namespace floe::codegen
