// Three-valued logic and conditional expressions: AND, OR (short-circuit), NOT, IS [NOT] NULL,
// CASE and COALESCE. Children are compiled lazily, only on the paths that evaluate them, so
// that e.g. CASE WHEN x <> 0 THEN 1 / x END never divides by zero.
#pragma once

#include <functional>

#include "codegen/codegen_context.h"
#include "engine/plan/expression.h"

namespace floe::codegen {

using ChildCompiler = std::function<SqlValue(const plan::Expr&)>;

// kAnd / kOr: a FALSE (AND) or TRUE (OR) child decides; otherwise NULL if a child was NULL.
SqlValue compile_junction(CodegenContext& context, const plan::Expr& expr,
                          const ChildCompiler& compile);
SqlValue compile_not(CodegenContext& context, SqlValue operand);
SqlValue compile_is_null(CodegenContext& context, SqlValue operand, bool negated);
// The THEN of the first WHEN that is TRUE (NULL is not TRUE), else the ELSE.
SqlValue compile_case(CodegenContext& context, const plan::Expr& expr,
                      const ChildCompiler& compile);
// The first non-NULL child.
SqlValue compile_coalesce(CodegenContext& context, const plan::Expr& expr,
                          const ChildCompiler& compile);

}  // namespace floe::codegen
