// Fixed-size rows that generated code materializes: join payloads, aggregation groups, sort
// rows and result rows. Fields sit at naturally aligned offsets (at most 8), then one null
// byte per nullable field (1 = NULL); the size is a multiple of 8.
#pragma once

#include <cstdint>
#include <vector>

#include "codegen/codegen_context.h"

namespace floe::codegen {

struct RowField {
  SqlType type;
  bool nullable = true;
};

class RowLayout {
 public:
  RowLayout() = default;
  explicit RowLayout(std::vector<RowField> fields);

  size_t field_count() const { return fields_.size(); }
  const RowField& field(size_t index) const { return fields_[index]; }
  uint32_t offset(size_t index) const { return offsets_[index]; }
  uint32_t null_offset(size_t index) const { return null_offsets_[index]; }  // nullable only
  uint32_t size() const { return size_; }

 private:
  std::vector<RowField> fields_;
  std::vector<uint32_t> offsets_;
  std::vector<uint32_t> null_offsets_;
  uint32_t size_ = 0;
};

// In-memory type of a physical type (booleans are i8, everything else as in registers).
llvm::Type* memory_type(CodegenContext& context, PhysicalType type);
// Loads / stores one non-null value of `type` at `address`.
llvm::Value* load_value(CodegenContext& context, llvm::Value* address, PhysicalType type);
void store_value(CodegenContext& context, llvm::Value* address, llvm::Value* value,
                 PhysicalType type);

// A row field as a SqlValue (null only for nullable fields) and back. Storing a NULL into a
// NOT NULL field fails the query (only inside pipeline functions).
SqlValue load_field(CodegenContext& context, llvm::Value* row, const RowLayout& layout,
                    size_t index);
void store_field(CodegenContext& context, llvm::Value* row, const RowLayout& layout, size_t index,
                 const SqlValue& value);

// The value with NULLs replaced by the zero of its type, so that it is safe to hash or
// compare (a NULL string's bits may not be a valid StringRef).
llvm::Value* zero_if_null(CodegenContext& context, const SqlValue& value);

}  // namespace floe::codegen
