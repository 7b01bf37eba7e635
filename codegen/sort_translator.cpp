// Sort. The sink appends each tuple's needed columns (plus computed sort keys) to a
// RowBuffer and provides a generated comparator; the executor sorts and applies LIMIT/OFFSET;
// the source reads the rows back in order.
#include "codegen/row_compare.h"
#include "codegen/translator.h"

namespace floe::codegen {
namespace {

class SortSink : public Consumer {
 public:
  // A key that is a stored column is compared in place; other keys are computed into
  // fields of their own (Materialization::computed_keys).
  SortSink(PipelineEnv& env, const plan::SortOp& sort)
      : env_(env), sort_(sort), rows_(&env.materialization(sort)) {
    env.pipeline->compare_function = emit_comparator();
  }

  void consume(Tuple& tuple, llvm::BasicBlock*) override {
    auto& b = env_.builder();
    auto* row = b.CreateCall(env_.codegen.runtime_function("floe_rt_rows_append"),
                             {env_.slot_pointer(rows_->slot), env_.codegen.worker()}, "sort_row");
    auto resolve = resolver_for(tuple);
    for (const auto& column : rows_->columns) {
      store_field(env_.codegen, row, rows_->layout, column.field, resolve(column.id));
    }
    size_t field = rows_->columns.size();
    for (const auto* key : rows_->computed_keys) {
      store_field(env_.codegen, row, rows_->layout, field++,
                  env_.expressions.compile(*key, resolve));
    }
  }

 private:
  std::string emit_comparator() {
    return emit_row_comparator(env_, "sort_compare", rows_->layout, plan::sort_keys(sort_, *rows_));
  }

  PipelineEnv& env_;
  const plan::SortOp& sort_;
  const Materialization* rows_;
};

class MaterializedSource : public Source {
 public:
  MaterializedSource(PipelineEnv& env, const plan::LogicalOp& op)
      : env_(env), rows_(env.materialization(op)) {}

  void produce(Consumer& consumer) override {
    auto& b = env_.builder();
    auto* buffer = env_.slot_pointer(rows_.slot);
    env_.emit_loop(env_.morsel_begin, env_.morsel_end, [&](llvm::Value* i, llvm::BasicBlock* next) {
      auto* row =
          b.CreateCall(env_.codegen.runtime_function("floe_rt_rows_at"), {buffer, i}, "row");
      Tuple tuple;
      for (const auto& column : rows_.columns) {
        tuple[column.id] = load_field(env_.codegen, row, rows_.layout, column.field);
      }
      consumer.consume(tuple, next);
    });
  }

 private:
  PipelineEnv& env_;
  const Materialization& rows_;
};

}  // namespace

std::unique_ptr<Consumer> make_sort_sink(PipelineEnv& env, const plan::SortOp& sort) {
  return std::make_unique<SortSink>(env, sort);
}

std::unique_ptr<Source> make_sort_source(PipelineEnv& env, const plan::SortOp& sort) {
  return make_materialized_source(env, sort);
}

std::unique_ptr<Source> make_materialized_source(PipelineEnv& env, const plan::LogicalOp& op) {
  return std::make_unique<MaterializedSource>(env, op);
}

}  // namespace floe::codegen
