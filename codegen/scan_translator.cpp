// Table scan source: reads batches through the runtime's vectorized TableScanner (DESIGN.md
// "Scans") and loops over each batch tuple at a time, evaluating the scan's filters right
// there. The scanner applies the scan's restrictions (SARGs) itself; in JIT-scan mode
// (PhysicalDescription::push_restrictions off) they are evaluated here like the filters.
#include "codegen/translator.h"
#include "engine/plan/scan_predicates.h"
#include "runtime/runtime_abi.h"

namespace floe::codegen {
namespace {

class ScanSource : public Source {
 public:
  ScanSource(PipelineEnv& env, const plan::ScanOp& scan) : env_(env), scan_(scan) {
    // The scanner reads the used columns, in this order (plan::StateSlot::columns).
    for (const auto& column : scan.columns) {
      if (env.is_used(column.id)) loaded_.push_back(column);
    }
    plan::ScanPredicates predicates = plan::scan_predicates(scan, env.physical);
    selects_ = predicates.selects;
    predicates_ = std::move(predicates.evaluated);
    slot_ = env.operator_slot(scan);
  }

  void produce(Consumer& consumer) override {
    auto& b = env_.builder();
    auto* cursors = env_.slot_pointer(slot_);
    auto* cursor = b.CreateLoad(
        b.getPtrTy(), b.CreateInBoundsGEP(b.getPtrTy(), cursors, env_.worker_id()), "cursor");
    env_.codegen.return_if_false(b.CreateCall(env_.codegen.runtime_function("floe_rt_scan_open"),
                                              {cursor, env_.morsel_begin, env_.morsel_end}));

    // struct FloeScanBatch { u32 count; u32 validity_offset; ptr columns; ptr validity;
    //                        ptr selection; }
    static_assert(offsetof(FloeScanBatch, validity_offset) == 4);
    static_assert(offsetof(FloeScanBatch, columns) == 8);
    static_assert(offsetof(FloeScanBatch, validity) == 16);
    static_assert(offsetof(FloeScanBatch, selection) == 24);
    auto* batch_type = llvm::StructType::get(
        b.getContext(), {b.getInt32Ty(), b.getInt32Ty(), b.getPtrTy(), b.getPtrTy(), b.getPtrTy()});
    auto* batch = env_.entry_alloca(batch_type);

    auto* function = env_.codegen.function();
    auto* next_batch = llvm::BasicBlock::Create(b.getContext(), "next_batch", function);
    auto* batch_body = llvm::BasicBlock::Create(b.getContext(), "batch", function);
    auto* done = llvm::BasicBlock::Create(b.getContext(), "scan_done", function);
    b.CreateBr(next_batch);

    b.SetInsertPoint(next_batch);
    auto* count = b.CreateCall(env_.codegen.runtime_function("floe_rt_scan_next"), {cursor, batch});
    b.CreateCondBr(b.CreateICmpEQ(count, b.getInt32(0)), done, batch_body);

    b.SetInsertPoint(batch_body);
    auto* columns = b.CreateLoad(b.getPtrTy(), b.CreateStructGEP(batch_type, batch, 2), "columns");
    auto* validity =
        b.CreateLoad(b.getPtrTy(), b.CreateStructGEP(batch_type, batch, 3), "validity");
    auto* validity_offset = b.CreateZExt(
        b.CreateLoad(b.getInt32Ty(), b.CreateStructGEP(batch_type, batch, 1)), b.getInt64Ty());
    // Only a scan whose restrictions the scanner applies, or an index scan, can get a
    // selection vector.
    llvm::Value* selection =
        selects_ ? b.CreateLoad(b.getPtrTy(), b.CreateStructGEP(batch_type, batch, 4), "selection")
                 : nullptr;
    std::vector<llvm::Value*> data;
    std::vector<llvm::Value*> bitmaps;
    for (size_t k = 0; k < loaded_.size(); ++k) {
      data.push_back(
          b.CreateLoad(b.getPtrTy(), b.CreateConstInBoundsGEP1_64(b.getPtrTy(), columns, k)));
      const size_t column = loaded_[k].table_column;
      bool nullable = column != kRowIdColumn && scan_.table->columns()[column].nullable;
      bitmaps.push_back(nullable ? b.CreateLoad(b.getPtrTy(), b.CreateConstInBoundsGEP1_64(
                                                                  b.getPtrTy(), validity, k))
                                 : nullptr);
    }

    env_.emit_loop(
        b.getInt64(0), b.CreateZExt(count, b.getInt64Ty()),
        [&](llvm::Value* i, llvm::BasicBlock* next) {
          llvm::Value* row = selection ? selected_row(selection, i) : i;
          Tuple tuple;
          for (size_t k = 0; k < loaded_.size(); ++k) {
            tuple[loaded_[k].id] = load_column(k, data[k], bitmaps[k], validity_offset, row);
          }
          for (const plan::Expr* predicate : predicates_) {
            auto* pass = env_.expressions.compile_predicate(*predicate, resolver_for(tuple));
            auto* keep = llvm::BasicBlock::Create(b.getContext(), "scan_match", function);
            b.CreateCondBr(pass, keep, next);
            b.SetInsertPoint(keep);
          }
          consumer.consume(tuple, next);
        });
    b.CreateBr(next_batch);
    b.SetInsertPoint(done);
  }

 private:
  // selection ? selection[i] : i (the branch is the same for a whole batch).
  llvm::Value* selected_row(llvm::Value* selection, llvm::Value* i) {
    auto& b = env_.builder();
    auto* function = env_.codegen.function();
    auto* from_selection = llvm::BasicBlock::Create(b.getContext(), "selected_row", function);
    auto* have_row = llvm::BasicBlock::Create(b.getContext(), "have_row", function);
    auto* dense = b.GetInsertBlock();
    b.CreateCondBr(b.CreateIsNull(selection), have_row, from_selection);
    b.SetInsertPoint(from_selection);
    auto* position = b.CreateZExt(
        b.CreateLoad(b.getInt32Ty(), b.CreateInBoundsGEP(b.getInt32Ty(), selection, i)),
        b.getInt64Ty());
    b.CreateBr(have_row);
    b.SetInsertPoint(have_row);
    auto* row = b.CreatePHI(b.getInt64Ty(), 2, "row");
    row->addIncoming(i, dense);
    row->addIncoming(position, from_selection);
    return row;
  }

  SqlValue load_column(size_t k, llvm::Value* data, llvm::Value* bitmap,
                       llvm::Value* validity_offset, llvm::Value* i) {
    auto& b = env_.builder();
    auto physical = env_.column(loaded_[k].id).type.physical();
    auto* address = b.CreateInBoundsGEP(memory_type(env_.codegen, physical), data, i);
    SqlValue value{load_value(env_.codegen, address, physical), nullptr};
    if (bitmap) {
      auto* bit = b.CreateAdd(validity_offset, i);
      auto* word = b.CreateLoad(b.getInt64Ty(),
                                b.CreateInBoundsGEP(b.getInt64Ty(), bitmap, b.CreateLShr(bit, 6)));
      auto* present = b.CreateTrunc(b.CreateLShr(word, b.CreateAnd(bit, 63)), b.getInt1Ty());
      value.null = b.CreateNot(present, "is_null");
    }
    return value;
  }

  PipelineEnv& env_;
  const plan::ScanOp& scan_;
  std::vector<plan::ScanOp::Column> loaded_;
  std::vector<const plan::Expr*> predicates_;  // evaluated in the generated loop
  bool selects_ = false;  // batches may come with a selection vector
  uint32_t slot_ = 0;
};

}  // namespace

std::unique_ptr<Source> make_scan_source(PipelineEnv& env, const plan::ScanOp& scan) {
  return std::make_unique<ScanSource>(env, scan);
}

}  // namespace floe::codegen
