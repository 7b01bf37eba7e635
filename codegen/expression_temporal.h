// Date, timestamp and interval arithmetic (PostgreSQL semantics: month arithmetic clamps the
// day of month) and EXTRACT.
#pragma once

#include "codegen/codegen_context.h"
#include "engine/plan/expression.h"

namespace floe::codegen {

// True when a kArithmetic expression involves a date, timestamp or interval operand.
bool is_temporal_arithmetic(const plan::Expr& expr);

// date +/- integer, date - date, date/timestamp +/- interval (either order for +),
// interval +/- interval, timestamp - timestamp, interval * or / double. `a` and `b` are the
// children's values.
SqlValue compile_temporal_arithmetic(CodegenContext& context, const plan::Expr& expr, SqlValue a,
                                     SqlValue b);

// -interval, failing with "interval out of range" when a field overflows.
SqlValue negate_interval(CodegenContext& context, SqlValue interval);

// EXTRACT(part FROM date, timestamp or interval) as the numeric `result_type`.
SqlValue compile_extract(CodegenContext& context, DatePart part, SqlValue value,
                         const SqlType& type, const SqlType& result_type);

}  // namespace floe::codegen
