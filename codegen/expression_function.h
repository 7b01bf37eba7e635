// Calls of registry functions (runtime/function_registry.h) in generated code: one generic
// path for every function. The arguments go into FunctionSlots on the stack, the thunk is
// called by its symbol, and a NULL argument skips the call (registry functions are strict).
// Also GREATEST and LEAST, which are not strict and take any type.
#pragma once

#include <vector>

#include "codegen/codegen_context.h"
#include "engine/plan/expression.h"

namespace floe::codegen {

// `expr` is a kFunction; `arguments` are its children's values.
SqlValue compile_function(CodegenContext& context, const plan::Expr& expr,
                          const std::vector<SqlValue>& arguments);

// Stores a non-null value of `type` into a FunctionSlot (runtime/function_registry.h layout).
void store_function_slot(CodegenContext& context, llvm::Value* slot, llvm::Value* value,
                         const SqlType& type);

// Loads a value of `type` from a FunctionSlot, in the type's register form.
llvm::Value* load_function_slot(CodegenContext& context, llvm::Value* slot, const SqlType& type);

// `expr` is a kGreatest or kLeast over `arguments`: the largest (smallest) non-NULL one,
// NULL when all are NULL.
SqlValue compile_extremum(CodegenContext& context, const plan::Expr& expr,
                          const std::vector<SqlValue>& arguments);

}  // namespace floe::codegen
