#include "codegen/expression_function.h"

#include <algorithm>

#include "codegen/expression_comparison.h"
#include "codegen/expression_ir.h"
#include "runtime/function_registry.h"

namespace floe::codegen {
namespace {

llvm::Value* slot_at(CodegenContext& context, llvm::Value* slots, size_t index) {
  return context.builder().CreateConstInBoundsGEP1_64(context.builder().getInt8Ty(), slots,
                                                      index * sizeof(FunctionSlot));
}

}  // namespace

void store_function_slot(CodegenContext& context, llvm::Value* slot, llvm::Value* value,
                         const SqlType& type) {
  auto& builder = context.builder();
  if (type.id == TypeId::kBoolean) {
    builder.CreateStore(builder.CreateZExt(value, builder.getInt8Ty()), slot);
  } else if (type.is_integer() || type.is_temporal()) {
    builder.CreateStore(builder.CreateSExt(value, builder.getInt64Ty()), slot);
  } else if (type.id == TypeId::kDecimal) {
    builder.CreateStore(builder.CreateSExt(value, builder.getInt128Ty()), slot);
    llvm::Value* scale =
        builder.CreateConstInBoundsGEP1_64(builder.getInt8Ty(), slot, kFunctionSlotScaleOffset);
    builder.CreateStore(builder.getInt32(type.scale), scale);
  } else {
    builder.CreateStore(value, slot);
  }
}

llvm::Value* load_function_slot(CodegenContext& context, llvm::Value* slot, const SqlType& type) {
  auto& builder = context.builder();
  llvm::Type* target = context.register_type(type);
  if (type.id == TypeId::kBoolean)
    return builder.CreateICmpNE(builder.CreateLoad(builder.getInt8Ty(), slot), builder.getInt8(0));
  if (type.is_integer() || type.is_temporal())
    return builder.CreateTrunc(builder.CreateLoad(builder.getInt64Ty(), slot), target);
  if (type.id == TypeId::kDecimal)
    return builder.CreateTrunc(builder.CreateLoad(builder.getInt128Ty(), slot), target);
  return builder.CreateLoad(target, slot);
}

SqlValue compile_extremum(CodegenContext& context, const plan::Expr& expr,
                          const std::vector<SqlValue>& arguments) {
  auto& builder = context.builder();
  bool greatest = expr.kind == plan::ExprKind::kGreatest;
  SqlValue best = arguments[0];
  for (size_t i = 1; i < arguments.size(); ++i) {
    const SqlValue& next = arguments[i];
    // Compared only when both are present (a NULL string's bits are no string).
    SqlValue order = compute_unless_null(context, or_nulls(context, {best.null, next.null}), [&] {
      return values_compare(context, next.value, best.value, expr.type);
    });
    llvm::Value* better = greatest ? builder.CreateICmpSGT(order.value, builder.getInt32(0))
                                   : builder.CreateICmpSLT(order.value, builder.getInt32(0));
    if (best.null) better = builder.CreateOr(better, best.null);      // anything beats NULL
    if (next.null) better = unless_null(context, better, next.null);  // NULL beats nothing
    llvm::Value* null = best.null && next.null ? builder.CreateAnd(best.null, next.null) : nullptr;
    best = {builder.CreateSelect(better, next.value, best.value), null};
  }
  return best;
}

SqlValue compile_function(CodegenContext& context, const plan::Expr& expr,
                          const std::vector<SqlValue>& arguments) {
  const FunctionOverload& function = *expr.function;
  auto& builder = context.builder();
  llvm::Value* null = nullptr;
  for (const SqlValue& argument : arguments) null = or_nulls(context, {null, argument.null});
  llvm::Type* slot_type = llvm::ArrayType::get(builder.getInt8Ty(), sizeof(FunctionSlot));
  llvm::Value* slots =
      entry_alloca(context, llvm::ArrayType::get(slot_type, std::max<size_t>(arguments.size(), 1)));
  llvm::Value* result = entry_alloca(context, slot_type);
  llvm::Value* result_null = nullptr;
  if (function.may_return_null) {
    // Stays set when a NULL argument skips the call.
    result_null =
        builder.CreateConstInBoundsGEP1_64(builder.getInt8Ty(), result, kFunctionSlotNullOffset);
    builder.CreateStore(builder.getInt8(1), result_null);
  }
  SqlValue value = compute_unless_null(context, null, [&] {
    for (size_t i = 0; i < arguments.size(); ++i)
      store_function_slot(context, slot_at(context, slots, i), arguments[i].value,
                          expr.children[i]->type);
    llvm::Value* ok = call_runtime(context, function.symbol, {context.worker(), slots, result});
    context.return_if_false(ok);
    return load_function_slot(context, result, expr.type);
  });
  if (result_null) {
    value.null = builder.CreateICmpNE(builder.CreateLoad(builder.getInt8Ty(), result_null),
                                      builder.getInt8(0));
  }
  return value;
}

}  // namespace floe::codegen
