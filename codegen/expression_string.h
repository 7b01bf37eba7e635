// Strings in generated code: StringRef halves {i64 lo = length | prefix, i64 hi}
// (storage/string_ref.h), equality with an inline fast path, ordering, LIKE. (SUBSTRING, ||
// and the other string functions are registry functions: expression_function.h.)
#pragma once

#include <optional>
#include <string>

#include "codegen/codegen_context.h"
#include "engine/plan/expression.h"

namespace floe::codegen {

llvm::Value* string_lo(CodegenContext& context, llvm::Value* string);
llvm::Value* string_hi(CodegenContext& context, llvm::Value* string);

// A string constant; long strings are kept alive with the compiled query.
llvm::Value* string_constant(CodegenContext& context, const std::string& bytes);

// i1 a == b for non-null strings: compares length and prefix inline and calls the runtime only
// when they match and the bytes do not fit in the prefix.
llvm::Value* string_equal(CodegenContext& context, llvm::Value* a, llvm::Value* b);
// i32 <0/0/>0, bytewise.
llvm::Value* string_compare(CodegenContext& context, llvm::Value* a, llvm::Value* b);

// text [NOT] LIKE <constant pattern> (the pattern expression must be a constant).
SqlValue compile_like(CodegenContext& context, SqlValue text, const plan::Expr& pattern,
                      bool negated);

}  // namespace floe::codegen
