#include <gtest/gtest.h>

#include <llvm/IR/IRBuilder.h>

#include "codegen/jit.h"
#include "storage/error.h"

namespace floe::codegen {
namespace {

// A module with `int64_t answer()` returning `value`.
std::unique_ptr<CompiledModule> compile_answer(int64_t value, JitOptimization level) {
  auto context = std::make_unique<llvm::LLVMContext>();
  auto module = std::make_unique<llvm::Module>("answer", *context);
  prepare_module(*module);
  llvm::IRBuilder<> builder(*context);
  auto* function = llvm::Function::Create(llvm::FunctionType::get(builder.getInt64Ty(), false),
                                          llvm::Function::ExternalLinkage, "answer", *module);
  builder.SetInsertPoint(llvm::BasicBlock::Create(*context, "entry", function));
  builder.CreateRet(builder.getInt64(value));
  optimize_module(*module, level);
  return compile_module(std::move(context), std::move(module), level, {"answer"});
}

TEST(CodegenJitTest, QueriesWithTheSameSymbolsLiveSideBySide) {
  for (auto level : {JitOptimization::kFast, JitOptimization::kOptimized}) {
    auto first = compile_answer(42, level);
    auto second = compile_answer(7, level);
    EXPECT_EQ(reinterpret_cast<int64_t (*)()>(first->lookup("answer"))(), 42);
    EXPECT_EQ(reinterpret_cast<int64_t (*)()>(second->lookup("answer"))(), 7);
    first.reset();  // frees the first query's code only
    EXPECT_EQ(reinterpret_cast<int64_t (*)()>(second->lookup("answer"))(), 7);
  }
}

TEST(CodegenJitTest, MissingSymbolIsAnError) {
  auto code = compile_answer(1, JitOptimization::kFast);
  EXPECT_THROW(code->lookup("no_such_function"), Error);
}

}  // namespace
}  // namespace floe::codegen
