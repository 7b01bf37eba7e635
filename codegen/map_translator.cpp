// Map: computes new columns and passes all input columns through.
#include "codegen/translator.h"
#include "storage/stack_depth.h"

namespace floe::codegen {
namespace {

class Map : public Consumer {
 public:
  Map(PipelineEnv& env, const plan::MapOp& map, Consumer& next)
      : env_(env), map_(map), next_(next) {}

  void consume(Tuple& tuple, llvm::BasicBlock* next) override {
    check_stack_depth();  // consumers of one pipeline call each other
    Tuple extended = tuple;
    for (const auto& computed : map_.computed) {
      extended[computed.id] = env_.expressions.compile(*computed.expr, resolver_for(extended));
    }
    next_.consume(extended, next);
  }

 private:
  PipelineEnv& env_;
  const plan::MapOp& map_;
  Consumer& next_;
};

}  // namespace

std::unique_ptr<Consumer> make_map(PipelineEnv& env, const plan::MapOp& map, Consumer& next) {
  return std::make_unique<Map>(env, map, next);
}

}  // namespace floe::codegen
