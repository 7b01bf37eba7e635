#include "codegen/translator.h"

#include <llvm/IR/MDBuilder.h>

#include <cstddef>
#include <iterator>

#include "runtime/query_context.h"
#include "storage/error.h"
#include "storage/stack_depth.h"

namespace floe::codegen {

ColumnResolver resolver_for(const Tuple& tuple) {
  return [&tuple](plan::ColumnId id) {
    auto found = tuple.find(id);
    if (found == tuple.end()) {
      throw Error("internal error: column #" + std::to_string(id) + " is not available here");
    }
    return found->second;
  };
}

PipelineEnv::PipelineEnv(CodegenContext& codegen, ExpressionCompiler& expressions,
                         const plan::LogicalPlan& plan, const plan::PhysicalDescription& physical,
                         QueryProgram& program)
    : codegen(codegen),
      expressions(expressions),
      plan(plan),
      physical(physical),
      program(program) {}

llvm::Value* PipelineEnv::slot_pointer(uint32_t slot) {
  // Loaded once, in the entry block: the state array never changes while a pipeline runs.
  auto*& loaded = slot_loads_[{codegen.function(), slot}];
  if (!loaded) {
    auto& entry = codegen.function()->getEntryBlock();
    llvm::IRBuilder<> entry_builder(&entry, entry.begin());
    auto* address =
        entry_builder.CreateConstInBoundsGEP1_32(entry_builder.getPtrTy(), codegen.state(), slot);
    loaded =
        entry_builder.CreateLoad(entry_builder.getPtrTy(), address, "slot" + std::to_string(slot));
  }
  return loaded;
}

llvm::Value* PipelineEnv::worker_id() {
  static_assert(offsetof(WorkerContext, worker_id) == 0);
  auto& b = builder();
  return b.CreateZExt(b.CreateLoad(b.getInt32Ty(), codegen.worker(), "worker_id"), b.getInt64Ty());
}

llvm::Value* PipelineEnv::row_counts() {
  auto*& loaded = row_counts_loads_[codegen.function()];
  if (!loaded) {
    auto& entry = codegen.function()->getEntryBlock();
    llvm::IRBuilder<> entry_builder(&entry, entry.begin());
    auto* address = entry_builder.CreateConstInBoundsGEP1_64(
        entry_builder.getInt8Ty(), codegen.worker(), offsetof(WorkerContext, row_counts));
    loaded = entry_builder.CreateLoad(entry_builder.getPtrTy(), address, "row_counts");
  }
  return loaded;
}

llvm::Value* PipelineEnv::entry_alloca(llvm::Type* type) {
  auto& entry = codegen.function()->getEntryBlock();
  llvm::IRBuilder<> entry_builder(&entry, entry.begin());
  return entry_builder.CreateAlloca(type);
}

std::string PipelineEnv::function_name(const std::string& kind) const {
  return "floe_" + kind + "_" + std::to_string(pipeline->id);
}

llvm::Function* PipelineEnv::create_function(const std::string& name, llvm::Type* result,
                                             const std::vector<llvm::Type*>& parameters) {
  auto* type = llvm::FunctionType::get(result, parameters, false);
  auto* function =
      llvm::Function::Create(type, llvm::Function::ExternalLinkage, name, codegen.module());
  if (result->isIntegerTy(1)) function->addRetAttr(llvm::Attribute::ZExt);
  function->addFnAttr(llvm::Attribute::NoUnwind);
  return function;
}

void PipelineEnv::emit_loop(llvm::Value* begin, llvm::Value* end,
                            const std::function<void(llvm::Value*, llvm::BasicBlock*)>& body) {
  auto& b = builder();
  auto* function = codegen.function();
  auto* before = b.GetInsertBlock();
  auto* head = llvm::BasicBlock::Create(b.getContext(), "loop", function);
  auto* body_block = llvm::BasicBlock::Create(b.getContext(), "loop_body", function);
  auto* latch = llvm::BasicBlock::Create(b.getContext(), "loop_next", function);
  auto* exit = llvm::BasicBlock::Create(b.getContext(), "loop_end", function);
  b.CreateBr(head);

  b.SetInsertPoint(head);
  auto* i = b.CreatePHI(begin->getType(), 2, "i");
  i->addIncoming(begin, before);
  b.CreateCondBr(b.CreateICmpULT(i, end), body_block, exit);

  b.SetInsertPoint(body_block);
  body(i, latch);
  b.CreateBr(latch);

  b.SetInsertPoint(latch);
  i->addIncoming(b.CreateAdd(i, llvm::ConstantInt::get(i->getType(), 1)), latch);
  b.CreateBr(head);

  b.SetInsertPoint(exit);
}

void PipelineEnv::poll_cancel(const std::string& name) {
  auto& b = builder();
  // Steps of this loop in the current morsel; a check costs a runtime call, so only one in
  // kLoopStepsPerCancelCheck steps makes it.
  auto* steps = entry_alloca(b.getInt64Ty());
  {
    auto& entry = codegen.function()->getEntryBlock();
    llvm::IRBuilder<> entry_builder(&entry,
                                    std::next(llvm::cast<llvm::Instruction>(steps)->getIterator()));
    entry_builder.CreateStore(entry_builder.getInt64(0), steps);
  }
  auto* count = b.CreateAdd(b.CreateLoad(b.getInt64Ty(), steps), b.getInt64(1));
  b.CreateStore(count, steps);
  auto* function = codegen.function();
  auto* check = llvm::BasicBlock::Create(b.getContext(), name + "_cancel_check", function);
  auto* go_on = llvm::BasicBlock::Create(b.getContext(), name + "_go_on", function);
  auto* due =
      b.CreateICmpEQ(b.CreateAnd(count, b.getInt64(kLoopStepsPerCancelCheck - 1)), b.getInt64(0));
  llvm::MDBuilder weights(b.getContext());
  b.CreateCondBr(due, check, go_on, weights.createBranchWeights(1, 1000));
  b.SetInsertPoint(check);
  codegen.return_if_false(
      b.CreateCall(codegen.runtime_function("floe_rt_check_canceled"), {codegen.worker()}));
  b.CreateBr(go_on);
  b.SetInsertPoint(go_on);
}

void PipelineEnv::emit_chain_walk(
    llvm::Value* first, llvm::Value* hash, const std::string& next_function,
    const std::string& name, const std::function<void(llvm::Value*, llvm::BasicBlock*)>& visit) {
  emit_chain_walk(
      first,
      [&](llvm::Value* entry) {
        return builder().CreateCall(codegen.runtime_function(next_function), {entry, hash});
      },
      name, visit);
}

void PipelineEnv::emit_chain_walk(
    llvm::Value* first, const std::function<llvm::Value*(llvm::Value*)>& next_of,
    const std::string& name, const std::function<void(llvm::Value*, llvm::BasicBlock*)>& visit) {
  auto& b = builder();
  auto* function = codegen.function();
  auto* before = b.GetInsertBlock();
  auto* head = llvm::BasicBlock::Create(b.getContext(), name + "_chain", function);
  auto* body = llvm::BasicBlock::Create(b.getContext(), name + "_entry", function);
  auto* advance = llvm::BasicBlock::Create(b.getContext(), name + "_next", function);
  auto* exhausted = llvm::BasicBlock::Create(b.getContext(), name + "_exhausted", function);
  b.CreateBr(head);

  b.SetInsertPoint(head);
  auto* entry = b.CreatePHI(b.getPtrTy(), 2, name + "_entry");
  entry->addIncoming(first, before);
  b.CreateCondBr(b.CreateIsNull(entry), exhausted, body);

  b.SetInsertPoint(body);
  visit(entry, advance);

  b.SetInsertPoint(advance);
  poll_cancel(name);
  auto* next_entry = next_of(entry);
  entry->addIncoming(next_entry, b.GetInsertBlock());
  b.CreateBr(head);

  b.SetInsertPoint(exhausted);
}

}  // namespace floe::codegen
