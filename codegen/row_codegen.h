// Loads and stores of the fields of materialized rows (engine/plan/row_layout.h) in
// generated code.
#pragma once

#include "codegen/codegen_context.h"
#include "engine/plan/row_layout.h"

namespace floe::codegen {

using plan::RowField;
using plan::RowLayout;

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
