// Repeat: passes the tuple on `count` times, in a loop around the consumers above (the
// copies of a group that INTERSECT ALL / EXCEPT ALL keep).
#include "codegen/translator.h"
#include "storage/stack_depth.h"

namespace floe::codegen {
namespace {

class Repeat : public Consumer {
 public:
  Repeat(PipelineEnv& env, const plan::RepeatOp& repeat, Consumer& next)
      : env_(env), repeat_(repeat), next_(next) {}

  void consume(Tuple& tuple, llvm::BasicBlock*) override {
    check_stack_depth();  // consumers of one pipeline call each other
    auto& b = env_.builder();
    SqlValue count = env_.expressions.compile(*repeat_.count, resolver_for(tuple));
    // NULL or below 1: no copies (the unsigned loop bound must not be negative).
    llvm::Value* times =
        b.CreateSelect(b.CreateICmpSLT(count.value, b.getInt64(0)), b.getInt64(0), count.value);
    if (count.null) times = b.CreateSelect(count.null, b.getInt64(0), times);
    env_.emit_loop(b.getInt64(0), times, [&](llvm::Value*, llvm::BasicBlock* again) {
      Tuple copy = tuple;
      next_.consume(copy, again);
    });
  }

 private:
  PipelineEnv& env_;
  const plan::RepeatOp& repeat_;
  Consumer& next_;
};

}  // namespace

std::unique_ptr<Consumer> make_repeat(PipelineEnv& env, const plan::RepeatOp& repeat,
                                      Consumer& next) {
  return std::make_unique<Repeat>(env, repeat, next);
}

}  // namespace floe::codegen
