#include "codegen/expression_decimal.h"

#include "codegen/expression_ir.h"
#include "storage/decimal.h"

namespace floe::codegen {

void check_precision(CodegenContext& context, llvm::Value* value, unsigned precision,
                     llvm::Value* null) {
  int128_t limit = power_of_ten(precision) - 1;
  check_range(context, value, -limit, limit, null, kNumericOverflow);
}

llvm::Value* checked_decimal_op(CodegenContext& context, llvm::Intrinsic::ID op, llvm::Value* a,
                                llvm::Value* b, unsigned precision, llvm::Value* null) {
  llvm::Value* result = checked_integer_op(context, op, a, b, null, kNumericOverflow);
  check_precision(context, result, precision, null);
  return result;
}

SqlValue convert_decimal(CodegenContext& context, SqlValue value, unsigned from_precision,
                         unsigned from_scale, const SqlType& to) {
  auto& builder = context.builder();
  llvm::Type* target = context.register_type(to);
  if (to.scale < from_scale) {
    return compute_unless_null(context, value.null, [&] {
      llvm::Type* wide = builder.getInt128Ty();
      llvm::Value* out = entry_alloca(context, wide);
      context.return_if_false(call_runtime(
          context, "floe_rt_decimal_rescale",
          {context.worker(), builder.CreateSExt(value.value, wide), builder.getInt32(from_scale),
           builder.getInt32(to.precision), builder.getInt32(to.scale), out}));
      return builder.CreateTrunc(builder.CreateLoad(wide, out), target);
    });
  }
  llvm::Type* wide = value.value->getType()->getIntegerBitWidth() > target->getIntegerBitWidth()
                         ? value.value->getType()
                         : target;
  llvm::Value* scaled = builder.CreateSExt(value.value, wide);
  // More digits left of the point and no fewer right of it: every value fits as it is.
  bool always_fits = to.precision - to.scale >= static_cast<int>(from_precision - from_scale);
  llvm::Value* factor = int_constant(wide, power_of_ten(to.scale - from_scale));
  if (always_fits) {
    if (to.scale > from_scale) scaled = builder.CreateMul(scaled, factor);
  } else {
    scaled = checked_decimal_op(context, llvm::Intrinsic::smul_with_overflow, scaled, factor,
                                to.precision, value.null);
  }
  return {builder.CreateTrunc(scaled, target), value.null};
}

}  // namespace floe::codegen
