// TableFunction: per input tuple, one call of a set-returning function
// (runtime/table_function.h): its arguments go into FunctionSlots, the cursor into stack
// storage, and a loop pushes the tuple with each value the cursor yields into the consumers
// above.
#include "codegen/expression_function.h"
#include "codegen/expression_ir.h"
#include "codegen/translator.h"
#include "runtime/table_function.h"
#include "storage/stack_depth.h"

namespace floe::codegen {
namespace {

class TableFunctionCall : public Consumer {
 public:
  TableFunctionCall(PipelineEnv& env, const plan::TableFunctionOp& call, Consumer& next)
      : env_(env), call_(call), next_(next) {}

  void consume(Tuple& tuple, llvm::BasicBlock*) override {
    check_stack_depth();  // consumers of one pipeline call each other
    auto& b = env_.builder();
    auto& codegen = env_.codegen;
    auto* function = codegen.function();
    auto* slot_type = llvm::ArrayType::get(b.getInt8Ty(), sizeof(FunctionSlot));
    const size_t count = call_.arguments.size();
    auto* slots = aligned_alloca(llvm::ArrayType::get(slot_type, count));
    for (size_t i = 0; i < count; ++i) {
      const plan::Expr& argument = *call_.arguments[i];
      SqlValue value = env_.expressions.compile(argument, resolver_for(tuple));
      auto* slot = b.CreateConstInBoundsGEP1_64(b.getInt8Ty(), slots, i * sizeof(FunctionSlot));
      // A NULL's bits are stored too: the function reads only the NULL flag then.
      store_function_slot(codegen, slot, value.value, argument.type);
      auto* null = value.null ? b.CreateZExt(value.null, b.getInt8Ty()) : b.getInt8(0);
      b.CreateStore(null,
                    b.CreateConstInBoundsGEP1_64(b.getInt8Ty(), slot, kFunctionSlotNullOffset));
    }
    auto* storage = aligned_alloca(llvm::ArrayType::get(b.getInt8Ty(), kTableFunctionCursorSize));
    // The registry lives as long as the process.
    auto* address = codegen.embed_object(
        std::shared_ptr<void>(std::shared_ptr<void>(), const_cast<TableFunction*>(call_.function)));
    auto* cursor = call_runtime(codegen, "floe_rt_table_function_open",
                                {codegen.worker(), address, storage, slots});
    codegen.return_if_false(b.CreateIsNotNull(cursor));
    auto* value = aligned_alloca(slot_type);
    llvm::Value* ordinal = nullptr;
    if (call_.ordinality) {
      ordinal = env_.entry_alloca(b.getInt64Ty());
      b.CreateStore(b.getInt64(0), ordinal);
    }

    auto* head = llvm::BasicBlock::Create(b.getContext(), "table_function_next", function);
    auto* row = llvm::BasicBlock::Create(b.getContext(), "table_function_row", function);
    auto* done = llvm::BasicBlock::Create(b.getContext(), "table_function_done", function);
    b.CreateBr(head);
    b.SetInsertPoint(head);
    auto* status =
        call_runtime(codegen, "floe_rt_table_function_next", {codegen.worker(), cursor, value});
    codegen.return_if_false(b.CreateICmpSGE(status, b.getInt32(0)));
    b.CreateCondBr(b.CreateICmpSGT(status, b.getInt32(0)), row, done);

    b.SetInsertPoint(row);
    const SqlType& type = env_.column(call_.column).type;
    auto* null_flag = b.CreateLoad(
        b.getInt8Ty(), b.CreateConstInBoundsGEP1_64(b.getInt8Ty(), value, kFunctionSlotNullOffset));
    Tuple extended = tuple;
    extended[call_.column] = {load_function_slot(codegen, value, type),
                              b.CreateICmpNE(null_flag, b.getInt8(0))};
    if (call_.ordinality) {
      auto* number = b.CreateAdd(b.CreateLoad(b.getInt64Ty(), ordinal), b.getInt64(1));
      b.CreateStore(number, ordinal);
      extended[*call_.ordinality] = {number, nullptr};
    }
    auto* again = llvm::BasicBlock::Create(b.getContext(), "table_function_again", function);
    next_.consume(extended, again);
    b.CreateBr(again);
    b.SetInsertPoint(again);
    env_.poll_cancel("table_function");
    b.CreateBr(head);

    b.SetInsertPoint(done);
  }

 private:
  llvm::Value* aligned_alloca(llvm::Type* type) {
    auto* alloca = llvm::cast<llvm::AllocaInst>(env_.entry_alloca(type));
    alloca->setAlignment(llvm::Align(kTableFunctionCursorAlignment));
    return alloca;
  }

  PipelineEnv& env_;
  const plan::TableFunctionOp& call_;
  Consumer& next_;
};

}  // namespace

std::unique_ptr<Consumer> make_table_function(PipelineEnv& env, const plan::TableFunctionOp& call,
                                              Consumer& next) {
  return std::make_unique<TableFunctionCall>(env, call, next);
}

}  // namespace floe::codegen
