#include "codegen/expression_logic.h"

#include "codegen/expression_ir.h"

namespace floe::codegen {

SqlValue compile_junction(CodegenContext& context, const plan::Expr& expr,
                          const ChildCompiler& compile) {
  auto& builder = context.builder();
  bool is_and = expr.kind == plan::ExprKind::kAnd;
  llvm::Value* deciding_result = builder.getInt1(!is_and);
  llvm::BasicBlock* done = new_block(context, is_and ? "and_done" : "or_done");
  std::vector<IncomingValue> incoming;
  llvm::Value* seen_null = nullptr;
  for (const plan::ExprPtr& child : expr.children) {
    SqlValue value = compile(*child);
    llvm::Value* decides = is_and ? builder.CreateNot(value.value) : value.value;
    decides = unless_null(context, decides, value.null);
    seen_null = or_nulls(context, {seen_null, value.null});
    llvm::BasicBlock* next = new_block(context, is_and ? "and_next" : "or_next");
    incoming.push_back({{deciding_result, nullptr}, builder.GetInsertBlock()});
    builder.CreateCondBr(decides, done, next);
    builder.SetInsertPoint(next);
  }
  incoming.push_back({{builder.getInt1(is_and), seen_null}, builder.GetInsertBlock()});
  builder.CreateBr(done);
  return merge_values(context, done, builder.getInt1Ty(), incoming);
}

SqlValue compile_not(CodegenContext& context, SqlValue operand) {
  return {context.builder().CreateNot(operand.value), operand.null};
}

SqlValue compile_is_null(CodegenContext& context, SqlValue operand, bool negated) {
  auto& builder = context.builder();
  llvm::Value* is_null = operand.null ? operand.null : builder.getFalse();
  return {negated ? builder.CreateNot(is_null) : is_null, nullptr};
}

SqlValue compile_case(CodegenContext& context, const plan::Expr& expr,
                      const ChildCompiler& compile) {
  auto& builder = context.builder();
  llvm::BasicBlock* done = new_block(context, "case_done");
  std::vector<IncomingValue> incoming;
  size_t else_index = expr.children.size() - 1;
  for (size_t i = 0; i < else_index; i += 2) {
    SqlValue when = compile(*expr.children[i]);
    llvm::BasicBlock* then_block = new_block(context, "case_then");
    llvm::BasicBlock* next = new_block(context, "case_next");
    builder.CreateCondBr(unless_null(context, when.value, when.null), then_block, next);
    builder.SetInsertPoint(then_block);
    incoming.push_back({compile(*expr.children[i + 1]), builder.GetInsertBlock()});
    builder.CreateBr(done);
    builder.SetInsertPoint(next);
  }
  incoming.push_back({compile(*expr.children[else_index]), builder.GetInsertBlock()});
  builder.CreateBr(done);
  return merge_values(context, done, context.register_type(expr.type), incoming);
}

SqlValue compile_coalesce(CodegenContext& context, const plan::Expr& expr,
                          const ChildCompiler& compile) {
  auto& builder = context.builder();
  llvm::BasicBlock* done = new_block(context, "coalesce_done");
  std::vector<IncomingValue> incoming;
  for (size_t i = 0; i < expr.children.size(); ++i) {
    SqlValue value = compile(*expr.children[i]);
    bool last = i + 1 == expr.children.size() || !value.null;
    if (last) {
      incoming.push_back({value, builder.GetInsertBlock()});
      builder.CreateBr(done);
      break;  // later children are never reached
    }
    llvm::BasicBlock* next = new_block(context, "coalesce_next");
    incoming.push_back({{value.value, nullptr}, builder.GetInsertBlock()});
    builder.CreateCondBr(value.null, next, done);
    builder.SetInsertPoint(next);
  }
  return merge_values(context, done, context.register_type(expr.type), incoming);
}

}  // namespace floe::codegen
