// Sort. The sink appends each tuple's needed columns (plus computed sort keys) to a
// RowBuffer and provides a generated comparator; the executor sorts and applies LIMIT/OFFSET;
// the source reads the rows back in order.
#include "codegen/row_compare.h"
#include "codegen/translator.h"

namespace floe::codegen {
namespace {

class SortSink : public Consumer {
 public:
  SortSink(PipelineEnv& env, const plan::SortOp& sort) : env_(env), sort_(sort) {
    std::vector<RowField> fields;
    Materialization rows;
    for (auto id : plan::output_columns(sort)) {
      if (!env.is_used(id)) continue;
      rows.columns.push_back({id, fields.size()});
      fields.push_back({env.column(id).type, env.column(id).nullable});
    }
    // A key that is a stored column is compared in place; other keys get their own field.
    for (const auto& key : sort.keys) {
      size_t field = fields.size();
      if (key.expr->kind == plan::ExprKind::kColumn) {
        for (const auto& column : rows.columns) {
          if (column.id == key.expr->column) field = column.field;
        }
      }
      if (field == fields.size()) {
        fields.push_back({key.expr->type, key.expr->nullable});
        computed_keys_.push_back(key.expr.get());
      }
      key_fields_.push_back(field);
    }
    rows.layout = RowLayout(std::move(fields));
    rows.slot =
        env.add_slot(StateSlot::sized(StateSlot::Kind::kRowBuffer, rows.layout.size()));
    rows_ = &(env.materializations[&sort] = std::move(rows));

    auto& pipeline = *env.pipeline;
    pipeline.sink = PipelineProgram::Sink::kSort;
    pipeline.sink_slot = rows_->slot;
    pipeline.offset = sort.offset;
    pipeline.limit = sort.limit;
    pipeline.compare_function = emit_comparator();
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
    for (const auto* key : computed_keys_) {
      store_field(env_.codegen, row, rows_->layout, field++,
                  env_.expressions.compile(*key, resolve));
    }
  }

 private:
  std::string emit_comparator() {
    std::vector<RowKey> keys;
    for (size_t k = 0; k < sort_.keys.size(); ++k) {
      const auto& key = sort_.keys[k];
      keys.push_back({key_fields_[k], key.expr->type, key.descending, key.nulls_first});
    }
    return emit_row_comparator(env_, "sort_compare", rows_->layout, keys);
  }

  PipelineEnv& env_;
  const plan::SortOp& sort_;
  std::vector<const plan::Expr*> computed_keys_;
  std::vector<size_t> key_fields_;
  const Materialization* rows_ = nullptr;
};

class MaterializedSource : public Source {
 public:
  MaterializedSource(PipelineEnv& env, const plan::LogicalOp& op)
      : env_(env), rows_(env.materializations.at(&op)) {
    env.pipeline->source = PipelineProgram::Source::kRows;
    env.pipeline->source_slot = rows_.slot;
  }

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
