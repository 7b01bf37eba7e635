#include "codegen/translator.h"

#include <llvm/IR/MDBuilder.h>

#include <cstddef>
#include <iterator>

#include "runtime/query_context.h"
#include "storage/error.h"
#include "storage/stack_depth.h"

namespace floe::codegen {
namespace {

void collect_columns(const plan::Expr& expr, std::unordered_set<plan::ColumnId>& used) {
  check_stack_depth();
  if (plan::is_subquery(expr.kind))
    throw Error("internal error: a subquery reached the code generator", expr.position);
  if (expr.kind == plan::ExprKind::kColumn) used.insert(expr.column);
  for (const auto& child : expr.children) collect_columns(*child, used);
}

// A scan's restrictions read their columns only when the generated code evaluates them.
void collect_columns(const plan::LogicalOp& op, bool push_restrictions,
                     std::unordered_set<plan::ColumnId>& used) {
  check_stack_depth();
  auto add = [&](const plan::ExprPtr& expr) {
    if (expr) collect_columns(*expr, used);
  };
  switch (op.kind) {
    case plan::LogicalKind::kScan: {
      const auto& scan = static_cast<const plan::ScanOp&>(op);
      for (const auto& filter : scan.filters) add(filter);
      if (!push_restrictions)
        for (const auto& restriction : scan.restrictions) add(restriction.predicate);
      break;
    }
    case plan::LogicalKind::kFilter:
      add(static_cast<const plan::FilterOp&>(op).predicate);
      break;
    case plan::LogicalKind::kMap:
      for (const auto& computed : static_cast<const plan::MapOp&>(op).computed) add(computed.expr);
      break;
    case plan::LogicalKind::kJoin: {
      const auto& join = static_cast<const plan::JoinOp&>(op);
      for (const auto& key : join.keys) {
        add(key.probe);
        add(key.build);
      }
      add(join.residual);
      add(join.mark_condition);
      break;
    }
    case plan::LogicalKind::kAggregate: {
      const auto& aggregate = static_cast<const plan::AggregateOp&>(op);
      for (const auto& group : aggregate.groups) add(group.expr);
      for (const auto& function : aggregate.aggregates) {
        add(function.argument);
        add(function.parameter);
        add(function.order);
      }
      break;
    }
    case plan::LogicalKind::kSort:
      for (const auto& key : static_cast<const plan::SortOp&>(op).keys) add(key.expr);
      break;
    case plan::LogicalKind::kValues:
      for (const auto& row : static_cast<const plan::ValuesOp&>(op).rows) {
        for (const auto& expr : row) add(expr);
      }
      break;
    case plan::LogicalKind::kUnionAll:
      for (const auto& input : static_cast<const plan::UnionAllOp&>(op).inputs)
        for (const auto& value : input) add(value);
      break;
    case plan::LogicalKind::kRepeat:
      add(static_cast<const plan::RepeatOp&>(op).count);
      break;
    case plan::LogicalKind::kSeries: {
      const auto& series = static_cast<const plan::SeriesOp&>(op);
      add(series.start);
      add(series.stop);
      add(series.step);
      break;
    }
    case plan::LogicalKind::kTableFunction:
      for (const auto& argument : static_cast<const plan::TableFunctionOp&>(op).arguments)
        add(argument);
      break;
    case plan::LogicalKind::kLimit:
      break;
    case plan::LogicalKind::kWindow: {
      const auto& window = static_cast<const plan::WindowOp&>(op);
      for (const auto& partition : window.partitions) add(partition);
      for (const auto& key : window.order) add(key.expr);
      for (const auto& function : window.functions) {
        for (const auto& argument : function.arguments) add(argument);
        if (function.range_key) add(function.range_key);
      }
      break;
    }
  }
  for (const auto& child : op.children) collect_columns(*child, push_restrictions, used);
}

}  // namespace

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
                         const plan::LogicalPlan& plan, QueryProgram& program,
                         bool push_restrictions)
    : codegen(codegen),
      expressions(expressions),
      plan(plan),
      program(program),
      push_restrictions(push_restrictions) {
  if (plan.root) collect_columns(*plan.root, push_restrictions, used_);
  for (const auto& output : plan.outputs) used_.insert(output.id);
}

uint32_t PipelineEnv::add_slot(StateSlot slot) {
  program.slots.push_back(std::move(slot));
  return static_cast<uint32_t>(program.slots.size() - 1);
}

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
  auto* next_entry = b.CreateCall(codegen.runtime_function(next_function), {entry, hash});
  entry->addIncoming(next_entry, b.GetInsertBlock());
  b.CreateBr(head);

  b.SetInsertPoint(exhausted);
}

}  // namespace floe::codegen
