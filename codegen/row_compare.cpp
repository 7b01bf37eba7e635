#include "codegen/row_compare.h"

namespace floe::codegen {
namespace {

// -1/0/1 for one key.
llvm::Value* compare_key(PipelineEnv& env, const RowLayout& layout, llvm::Value* a_row,
                         llvm::Value* b_row, const RowKey& key) {
  auto& b = env.builder();
  SqlValue a = load_field(env.codegen, a_row, layout, key.field);
  SqlValue c = load_field(env.codegen, b_row, layout, key.other_field.value_or(key.field));
  auto* raw =
      env.expressions.compare(zero_if_null(env.codegen, a), zero_if_null(env.codegen, c), key.type);
  auto* less = b.CreateICmpSLT(raw, b.getInt32(0));
  auto* greater = b.CreateICmpSGT(raw, b.getInt32(0));
  int32_t sign = key.descending ? -1 : 1;
  llvm::Value* order = b.CreateSelect(less, b.getInt32(-sign),
                                      b.CreateSelect(greater, b.getInt32(sign), b.getInt32(0)));
  if (a.null || c.null) {
    int32_t null_first = key.nulls_first ? -1 : 1;
    llvm::Value* a_null = a.null ? a.null : b.getFalse();
    llvm::Value* c_null = c.null ? c.null : b.getFalse();
    order = b.CreateSelect(c_null, b.CreateSelect(a_null, b.getInt32(0), b.getInt32(-null_first)),
                           b.CreateSelect(a_null, b.getInt32(null_first), order));
  }
  return order;
}

}  // namespace

std::string emit_row_comparator(PipelineEnv& env, const std::string& kind, const RowLayout& layout,
                                const std::vector<RowKey>& keys) {
  auto& b = env.builder();
  auto name = env.function_name(kind);
  // The trailing context parameter of a RowComparator (runtime/row_callbacks.h) is unused.
  auto* function =
      env.create_function(name, b.getInt32Ty(), {b.getPtrTy(), b.getPtrTy(), b.getPtrTy()});
  env.codegen.begin_function(function, nullptr, nullptr);
  b.SetInsertPoint(llvm::BasicBlock::Create(b.getContext(), "entry", function));
  for (const RowKey& key : keys) {
    auto* order = compare_key(env, layout, function->getArg(0), function->getArg(1), key);
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

}  // namespace floe::codegen
