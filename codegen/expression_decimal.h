// Decimals in generated code: integers scaled by 10^scale, i64 for precision <= 18, i128 above
// (DESIGN.md "Data model"). Rounding is half away from zero, as PostgreSQL's numeric rounds.
#pragma once

#include "codegen/codegen_context.h"

namespace floe::codegen {

constexpr const char* kNumericOverflow = "numeric field overflow";

// value / 10^exponent, rounded half away from zero, at value's width.
llvm::Value* divide_by_power_of_ten(CodegenContext& context, llvm::Value* value, unsigned exponent);

// Converts a scaled integer with (from_precision, from_scale) to the decimal type `to`:
// rescales (rounding when the scale shrinks), changes the width and fails with "numeric field
// overflow" for non-NULL rows whose value does not fit `to`'s precision.
llvm::Value* rescale_decimal(CodegenContext& context, llvm::Value* value, llvm::Value* null,
                             unsigned from_precision, unsigned from_scale, const SqlType& to);

}  // namespace floe::codegen
