#include "codegen/expression_decimal.h"

#include "codegen/expression_ir.h"
#include "storage/decimal.h"

namespace floe::codegen {

llvm::Value* divide_by_power_of_ten(CodegenContext& context, llvm::Value* value,
                                    unsigned exponent) {
  if (exponent == 0) return value;
  auto& builder = context.builder();
  llvm::Type* type = value->getType();
  int128_t divisor = power_of_ten(exponent);
  // |value| + divisor/2 fits the unsigned range of the width, so one unsigned division
  // rounds the magnitude; the sign is put back afterwards.
  llvm::Value* negative = builder.CreateICmpSLT(value, int_constant(type, 0));
  llvm::Value* magnitude = builder.CreateSelect(negative, builder.CreateNeg(value), value);
  llvm::Value* rounded = builder.CreateUDiv(
      builder.CreateAdd(magnitude, int_constant(type, divisor / 2)), int_constant(type, divisor));
  return builder.CreateSelect(negative, builder.CreateNeg(rounded), rounded);
}

llvm::Value* rescale_decimal(CodegenContext& context, llvm::Value* value, llvm::Value* null,
                             unsigned from_precision, unsigned from_scale, const SqlType& to) {
  auto& builder = context.builder();
  llvm::Type* target = context.register_type(to);
  llvm::Type* wide = value->getType()->getIntegerBitWidth() > target->getIntegerBitWidth()
                         ? value->getType()
                         : target;
  value = builder.CreateSExt(value, wide);
  if (to.scale > from_scale) {
    value = checked_integer_op(context, llvm::Intrinsic::smul_with_overflow, value,
                               int_constant(wide, power_of_ten(to.scale - from_scale)), null,
                               kNumericOverflow);
  } else {
    value = divide_by_power_of_ten(context, value, from_scale - to.scale);
  }
  // Rounding up can add a digit, so only a wider integer part with no lost scale is safe.
  int integer_digits = static_cast<int>(from_precision) - static_cast<int>(from_scale);
  bool always_fits = to.scale >= from_scale && to.precision - to.scale >= integer_digits;
  if (!always_fits) {
    int128_t limit = power_of_ten(to.precision) - 1;
    check_range(context, value, -limit, limit, null, kNumericOverflow);
  }
  return builder.CreateTrunc(value, target);
}

}  // namespace floe::codegen
