#include "codegen/row_codegen.h"

#include <algorithm>

namespace floe::codegen {

llvm::Type* memory_type(CodegenContext& context, PhysicalType type) {
  if (type == PhysicalType::kBool) return context.builder().getInt8Ty();
  return context.register_type(type);
}

namespace {

llvm::Align alignment(PhysicalType type) {
  return llvm::Align(std::min<size_t>(physical_size(type), 8));
}

llvm::Value* byte_address(CodegenContext& context, llvm::Value* row, uint32_t offset) {
  return context.builder().CreateConstInBoundsGEP1_32(context.builder().getInt8Ty(), row, offset);
}

}  // namespace

llvm::Value* load_value(CodegenContext& context, llvm::Value* address, PhysicalType type) {
  auto& builder = context.builder();
  llvm::Value* value =
      builder.CreateAlignedLoad(memory_type(context, type), address, alignment(type));
  if (type == PhysicalType::kBool) value = builder.CreateICmpNE(value, builder.getInt8(0));
  return value;
}

void store_value(CodegenContext& context, llvm::Value* address, llvm::Value* value,
                 PhysicalType type) {
  auto& builder = context.builder();
  if (type == PhysicalType::kBool) value = builder.CreateZExt(value, builder.getInt8Ty());
  builder.CreateAlignedStore(value, address, alignment(type));
}

SqlValue load_field(CodegenContext& context, llvm::Value* row, const RowLayout& layout,
                    size_t index) {
  auto& builder = context.builder();
  const auto& field = layout.field(index);
  SqlValue result;
  result.value =
      load_value(context, byte_address(context, row, layout.offset(index)), field.type.physical());
  if (field.nullable) {
    auto* flag = builder.CreateLoad(builder.getInt8Ty(),
                                    byte_address(context, row, layout.null_offset(index)));
    result.null = builder.CreateICmpNE(flag, builder.getInt8(0));
  }
  return result;
}

void store_field(CodegenContext& context, llvm::Value* row, const RowLayout& layout, size_t index,
                 const SqlValue& value) {
  auto& builder = context.builder();
  const auto& field = layout.field(index);
  if (!field.nullable && value.null) {
    // The plan promised NOT NULL; never store a NULL as a value.
    context.fail_if(value.null, "internal error: NULL value in a NOT NULL column");
  }
  store_value(context, byte_address(context, row, layout.offset(index)),
              zero_if_null(context, value), field.type.physical());
  if (field.nullable) {
    llvm::Value* flag =
        value.null ? builder.CreateZExt(value.null, builder.getInt8Ty()) : builder.getInt8(0);
    builder.CreateStore(flag, byte_address(context, row, layout.null_offset(index)));
  }
}

llvm::Value* zero_if_null(CodegenContext& context, const SqlValue& value) {
  if (!value.null) return value.value;
  return context.builder().CreateSelect(
      value.null, llvm::Constant::getNullValue(value.value->getType()), value.value);
}

}  // namespace floe::codegen
