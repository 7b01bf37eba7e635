// EXPLAIN ANALYZE row counts (as in HyPer/Umbra, where operators are fused into pipelines and
// have no boundary to measure at): sits between an operator and its consumer and bumps the
// operator's counter for every tuple passed on. The counters are the worker's own
// (WorkerContext::row_counts), so the loop has no atomics; the executor sums them afterwards.
#include <algorithm>

#include "codegen/translator.h"
#include "storage/stack_depth.h"

namespace floe::codegen {
namespace {

class RowCounter : public Consumer {
 public:
  RowCounter(PipelineEnv& env, const plan::LogicalOp& op, Consumer& next) : env_(env), next_(next) {
    // An operator may pass tuples on in several pipelines (an outer join's unmatched rows):
    // one counter for all of them.
    auto& counted = env.program.counted_operators;
    auto found = std::find(counted.begin(), counted.end(), &op);
    index_ = static_cast<uint32_t>(found - counted.begin());
    if (found == counted.end()) counted.push_back(&op);
  }

  void consume(Tuple& tuple, llvm::BasicBlock* next) override {
    check_stack_depth();  // consumers of one pipeline call each other
    auto& b = env_.builder();
    auto* counter = b.CreateConstInBoundsGEP1_32(b.getInt64Ty(), env_.row_counts(), index_);
    b.CreateStore(b.CreateAdd(b.CreateLoad(b.getInt64Ty(), counter), b.getInt64(1)), counter);
    next_.consume(tuple, next);
  }

 private:
  PipelineEnv& env_;
  Consumer& next_;
  uint32_t index_ = 0;
};

}  // namespace

std::unique_ptr<Consumer> make_row_counter(PipelineEnv& env, const plan::LogicalOp& op,
                                           Consumer& next) {
  return std::make_unique<RowCounter>(env, op, next);
}

}  // namespace floe::codegen
