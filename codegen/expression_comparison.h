// Equality and ordering of SQL values for every physical type (PostgreSQL semantics: a
// double NaN equals NaN and sorts above every other value; intervals compare by their span
// with 30-day months), plus comparison operators and IN lists.
#pragma once

#include <vector>

#include "codegen/codegen_context.h"
#include "engine/plan/expression.h"

namespace floe::codegen {

// i128 microseconds of an interval register value, as PostgreSQL orders intervals.
llvm::Value* interval_span(CodegenContext& context, llvm::Value* interval);

// i1 equality of two non-null values of `type`.
llvm::Value* values_equal(CodegenContext& context, llvm::Value* a, llvm::Value* b,
                          const SqlType& type);
// i32 <0/0/>0 of two non-null values of `type`.
llvm::Value* values_compare(CodegenContext& context, llvm::Value* a, llvm::Value* b,
                            const SqlType& type);

// a <op> b, NULL when either side is NULL.
SqlValue compile_comparison(CodegenContext& context, plan::CompareOp op, SqlValue a, SqlValue b,
                            const SqlType& type);

// needle [NOT] IN (items): TRUE when an item equals the needle; otherwise NULL when the needle
// or any item is NULL; otherwise FALSE (NOT IN negates TRUE and FALSE).
SqlValue compile_in_list(CodegenContext& context, SqlValue needle,
                         const std::vector<SqlValue>& items, const SqlType& type, bool negated);

}  // namespace floe::codegen
