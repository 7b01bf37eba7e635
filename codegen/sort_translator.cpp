// Sort. The sink appends each tuple's needed columns (plus computed sort keys) to a
// RowBuffer and provides a generated comparator; the executor sorts and applies LIMIT/OFFSET;
// the source reads the rows back in order.
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
  // int32 compare(const uint8_t* a, const uint8_t* b): the first key that differs decides.
  std::string emit_comparator() {
    auto& b = env_.builder();
    auto name = env_.function_name("sort_compare");
    auto* function = env_.create_function(name, b.getInt32Ty(), {b.getPtrTy(), b.getPtrTy()});
    env_.codegen.begin_function(function, nullptr, nullptr);
    b.SetInsertPoint(llvm::BasicBlock::Create(b.getContext(), "entry", function));
    for (size_t k = 0; k < sort_.keys.size(); ++k) {
      auto* order = compare_key(function->getArg(0), function->getArg(1), k);
      auto* decided = llvm::BasicBlock::Create(b.getContext(), "decided", function);
      auto* tie = llvm::BasicBlock::Create(b.getContext(), "tie", function);
      b.CreateCondBr(b.CreateICmpNE(order, b.getInt32(0)), decided, tie);
      b.SetInsertPoint(decided);
      b.CreateRet(order);
      b.SetInsertPoint(tie);
    }
    b.CreateRet(b.getInt32(0));
    return name;
  }

  // -1/0/1 for one key, honoring DESC and NULLS FIRST/LAST.
  llvm::Value* compare_key(llvm::Value* a_row, llvm::Value* b_row, size_t k) {
    auto& b = env_.builder();
    const auto& key = sort_.keys[k];
    SqlValue a = load_field(env_.codegen, a_row, rows_->layout, key_fields_[k]);
    SqlValue c = load_field(env_.codegen, b_row, rows_->layout, key_fields_[k]);
    auto* raw = env_.expressions.compare(zero_if_null(env_.codegen, a),
                                         zero_if_null(env_.codegen, c), key.expr->type);
    auto* less = b.CreateICmpSLT(raw, b.getInt32(0));
    auto* greater = b.CreateICmpSGT(raw, b.getInt32(0));
    int32_t sign = key.descending ? -1 : 1;
    llvm::Value* order = b.CreateSelect(less, b.getInt32(-sign),
                                        b.CreateSelect(greater, b.getInt32(sign), b.getInt32(0)));
    if (a.null) {
      int32_t null_first = key.nulls_first ? -1 : 1;
      order = b.CreateSelect(c.null, b.CreateSelect(a.null, b.getInt32(0), b.getInt32(-null_first)),
                             b.CreateSelect(a.null, b.getInt32(null_first), order));
    }
    return order;
  }

  PipelineEnv& env_;
  const plan::SortOp& sort_;
  std::vector<const plan::Expr*> computed_keys_;
  std::vector<size_t> key_fields_;
  const Materialization* rows_ = nullptr;
};

class SortSource : public Source {
 public:
  SortSource(PipelineEnv& env, const plan::SortOp& sort)
      : env_(env), rows_(env.materializations.at(&sort)) {
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
  return std::make_unique<SortSource>(env, sort);
}

}  // namespace floe::codegen
