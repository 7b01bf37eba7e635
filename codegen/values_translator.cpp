// VALUES source: constant rows. The morsel is a range of row numbers; a switch picks the row
// and phis merge its values into one tuple, so the downstream code exists once.
#include "codegen/translator.h"
#include "storage/error.h"

namespace floe::codegen {
namespace {

class ValuesSource : public Source {
 public:
  ValuesSource(PipelineEnv& env, const plan::ValuesOp& values) : env_(env), values_(values) {}

  void produce(Consumer& consumer) override {
    auto& b = env_.builder();
    auto* function = env_.codegen.function();
    env_.emit_loop(env_.morsel_begin, env_.morsel_end, [&](llvm::Value* i, llvm::BasicBlock* next) {
      auto* merge = llvm::BasicBlock::Create(b.getContext(), "values_row", function);
      auto* pick = b.CreateSwitch(i, next, static_cast<unsigned>(values_.rows.size()));
      std::vector<std::vector<SqlValue>> row_values;
      std::vector<llvm::BasicBlock*> row_ends;
      const Tuple no_columns;
      for (size_t r = 0; r < values_.rows.size(); ++r) {
        auto* block =
            llvm::BasicBlock::Create(b.getContext(), "values_" + std::to_string(r), function);
        pick->addCase(b.getInt64(r), block);
        b.SetInsertPoint(block);
        std::vector<SqlValue> row;
        for (const auto& expr : values_.rows[r]) {
          row.push_back(env_.expressions.compile(*expr, resolver_for(no_columns)));
        }
        row_values.push_back(std::move(row));
        row_ends.push_back(b.GetInsertBlock());
        b.CreateBr(merge);
      }
      b.SetInsertPoint(merge);
      Tuple tuple;
      for (size_t c = 0; c < values_.columns.size(); ++c) {
        tuple[values_.columns[c]] = merge_column(c, row_values, row_ends);
      }
      consumer.consume(tuple, next);
    });
  }

 private:
  SqlValue merge_column(size_t c, const std::vector<std::vector<SqlValue>>& rows,
                        const std::vector<llvm::BasicBlock*>& ends) {
    auto& b = env_.builder();
    bool any_null = false;
    for (const auto& row : rows) {
      if (row.size() != values_.columns.size()) {
        throw Error("internal error: VALUES row has the wrong number of columns");
      }
      any_null |= row[c].null != nullptr;
    }
    auto* type = env_.codegen.register_type(env_.column(values_.columns[c]).type);
    auto* value = b.CreatePHI(type, static_cast<unsigned>(rows.size()));
    auto* null =
        any_null ? b.CreatePHI(b.getInt1Ty(), static_cast<unsigned>(rows.size())) : nullptr;
    for (size_t r = 0; r < rows.size(); ++r) {
      if (rows[r][c].value->getType() != type) {
        throw Error("internal error: VALUES expression type differs from its column");
      }
      value->addIncoming(rows[r][c].value, ends[r]);
      if (null) null->addIncoming(rows[r][c].null ? rows[r][c].null : b.getFalse(), ends[r]);
    }
    return {value, null};
  }

  PipelineEnv& env_;
  const plan::ValuesOp& values_;
};

}  // namespace

std::unique_ptr<Source> make_values_source(PipelineEnv& env, const plan::ValuesOp& values) {
  return std::make_unique<ValuesSource>(env, values);
}

}  // namespace floe::codegen
