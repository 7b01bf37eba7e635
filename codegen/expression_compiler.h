// Compiles bound expressions (engine/plan/expression.h) to LLVM IR, tuple at a time, with
// SQL NULL semantics and three-valued logic. NOT NULL inputs produce no null checks.
#pragma once

#include <functional>

#include "codegen/codegen_context.h"
#include "engine/plan/expression.h"

namespace floe::codegen {

// Gives the current tuple's value of a column (information unit).
using ColumnResolver = std::function<SqlValue(plan::ColumnId)>;

class ExpressionCompiler {
 public:
  explicit ExpressionCompiler(CodegenContext& context) : context_(context) {}

  // Emits code at the builder's insertion point; may create basic blocks.
  SqlValue compile(const plan::Expr& expr, const ColumnResolver& columns);

  // For filters and join residuals: i1 that is true only when the predicate is TRUE
  // (NULL and FALSE both reject).
  llvm::Value* compile_predicate(const plan::Expr& expr, const ColumnResolver& columns);

  // 64-bit hash of a non-null value of `type` (strings through floe_rt_hash_string),
  // combined with `seed`; used for join and group keys.
  llvm::Value* hash(const SqlValue& value, const SqlType& type, llvm::Value* seed);
  // i1 equality of two non-null values of the same type (group and join key comparison).
  llvm::Value* equal(llvm::Value* a, llvm::Value* b, const SqlType& type);
  // i32 <0/0/>0 of two non-null values of the same type (sort comparators).
  llvm::Value* compare(llvm::Value* a, llvm::Value* b, const SqlType& type);

 private:
  CodegenContext& context_;
};

}  // namespace floe::codegen
