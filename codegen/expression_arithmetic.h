// + - * / % and unary minus on integers (overflow-checked), decimals (scaled integers) and
// doubles; date/time forms are delegated to expression_temporal.
#pragma once

#include "codegen/codegen_context.h"
#include "engine/plan/expression.h"

namespace floe::codegen {

// `a` and `b` are the values of expr.children[0] and [1].
SqlValue compile_arithmetic(CodegenContext& context, const plan::Expr& expr, SqlValue a,
                            SqlValue b);

// -operand, of expr.type.
SqlValue compile_negate(CodegenContext& context, const plan::Expr& expr, SqlValue operand);

}  // namespace floe::codegen
