// Decimals in generated code: integers scaled by 10^scale, i64 for precision <= 18, i128 above
// (DESIGN.md "Data model"). The semantics are storage/decimal.h's (shared with constant
// folding): add, subtract and multiply are inlined as an overflow-checked machine operation
// plus the precision check; rounding rescales call floe_rt_decimal_rescale.
#pragma once

#include "codegen/codegen_context.h"

namespace floe::codegen {

// Fails with "numeric field overflow" unless the non-NULL `value` has at most `precision`
// digits (storage's fits_precision).
void check_precision(CodegenContext& context, llvm::Value* value, unsigned precision,
                     llvm::Value* null);

// a <op> b of scaled integers of one width, op an llvm.s{add,sub,mul}.with.overflow intrinsic,
// as storage's add_decimals / subtract_decimals / multiply_decimals into `precision` digits.
llvm::Value* checked_decimal_op(CodegenContext& context, llvm::Intrinsic::ID op, llvm::Value* a,
                                llvm::Value* b, unsigned precision, llvm::Value* null);

// storage's rescale_decimal: converts a scaled integer with (from_precision, from_scale) to
// the decimal type `to`, failing for non-NULL rows whose value does not fit. Scaling up is
// inlined (checks only where the types allow an overflow); scaling down rounds in the runtime.
SqlValue convert_decimal(CodegenContext& context, SqlValue value, unsigned from_precision,
                         unsigned from_scale, const SqlType& to);

}  // namespace floe::codegen
