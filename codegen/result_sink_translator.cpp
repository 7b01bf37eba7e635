// Result sink: appends one row per tuple to the result RowBuffer, one field per output
// column of the query.
#include "codegen/translator.h"

namespace floe::codegen {
namespace {

class ResultSink : public Consumer {
 public:
  explicit ResultSink(PipelineEnv& env) : env_(env), slot_(env.physical.result_slot) {}

  void consume(Tuple& tuple, llvm::BasicBlock*) override {
    auto& b = env_.builder();
    auto* row = b.CreateCall(env_.codegen.runtime_function("floe_rt_rows_append"),
                             {env_.slot_pointer(slot_), env_.codegen.worker()}, "result_row");
    auto resolve = resolver_for(tuple);
    const auto& layout = env_.physical.result_layout;
    for (size_t i = 0; i < env_.plan.outputs.size(); ++i) {
      store_field(env_.codegen, row, layout, i, resolve(env_.plan.outputs[i].id));
    }
  }

 private:
  PipelineEnv& env_;
  uint32_t slot_ = 0;
};

}  // namespace

std::unique_ptr<Consumer> make_result_sink(PipelineEnv& env) {
  return std::make_unique<ResultSink>(env);
}

}  // namespace floe::codegen
