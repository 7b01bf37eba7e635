// UNION ALL input: one per child of the union, in that child's pipeline. It computes the
// union's columns from the child's tuple (casts to the unified types) and pushes the new
// tuple into the consumers above the union, which all children's pipelines share.
#include "codegen/translator.h"
#include "storage/stack_depth.h"

namespace floe::codegen {
namespace {

class UnionAllInput : public Consumer {
 public:
  UnionAllInput(PipelineEnv& env, const plan::UnionAllOp& union_all, size_t child, Consumer& next)
      : env_(env), union_all_(union_all), child_(child), next_(next) {}

  void consume(Tuple& tuple, llvm::BasicBlock* next) override {
    check_stack_depth();  // consumers of one pipeline call each other
    const auto& inputs = union_all_.inputs[child_];
    Tuple output;
    for (size_t c = 0; c < union_all_.columns.size(); ++c)
      output[union_all_.columns[c]] = env_.expressions.compile(*inputs[c], resolver_for(tuple));
    next_.consume(output, next);
  }

 private:
  PipelineEnv& env_;
  const plan::UnionAllOp& union_all_;
  size_t child_;
  Consumer& next_;
};

}  // namespace

std::unique_ptr<Consumer> make_union_all_input(PipelineEnv& env, const plan::UnionAllOp& union_all,
                                               size_t child, Consumer& next) {
  return std::make_unique<UnionAllInput>(env, union_all, child, next);
}

}  // namespace floe::codegen
