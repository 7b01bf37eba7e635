// Small IR building blocks shared by the expression compiler's files: NULL flag algebra,
// conditional evaluation, entry-block allocas, checked integer operations and runtime calls.
#pragma once

#include <llvm/IR/Intrinsics.h>

#include <functional>
#include <initializer_list>
#include <string>
#include <vector>

#include "codegen/codegen_context.h"
#include "storage/decimal.h"

namespace floe::codegen {

// OR of null flags that treats nullptr as "never NULL"; nullptr when all are nullptr.
llvm::Value* or_nulls(CodegenContext& context, std::initializer_list<llvm::Value*> nulls);

// `condition` restricted to non-NULL rows: errors must never fire for NULL inputs, whose
// value bits are meaningless.
llvm::Value* unless_null(CodegenContext& context, llvm::Value* condition, llvm::Value* null);

// Emits `body` only for non-NULL rows (always when `null` is nullptr). The result carries
// `null` and, for NULL rows, a zero value. Needed around runtime calls, which must not see
// the garbage bits of a NULL value.
SqlValue compute_unless_null(CodegenContext& context, llvm::Value* null,
                             const std::function<llvm::Value*()>& body);

// Joins values computed in different blocks: every incoming pair is (value, its block).
// Null flags that are nullptr count as false; the merged null is nullptr only if all are.
struct IncomingValue {
  SqlValue value;
  llvm::BasicBlock* block;
};
SqlValue merge_values(CodegenContext& context, llvm::BasicBlock* merge_block, llvm::Type* type,
                      const std::vector<IncomingValue>& incoming);

// New basic block in the function being emitted into.
llvm::BasicBlock* new_block(CodegenContext& context, const char* name);

// A 16-byte aligned stack slot in the entry block, so that loops do not grow the stack.
llvm::Value* entry_alloca(CodegenContext& context, llvm::Type* type);

// Integer constant of `type` (any width up to 128 bits).
llvm::Constant* int_constant(llvm::Type* type, int128_t value);

// a <op> b with an llvm.*.with.overflow intrinsic; fails with `message` on overflow of a
// non-NULL row.
llvm::Value* checked_integer_op(CodegenContext& context, llvm::Intrinsic::ID op, llvm::Value* a,
                                llvm::Value* b, llvm::Value* null, const std::string& message);

// Fails with `message` unless min <= value <= max (signed), for non-NULL rows.
void check_range(CodegenContext& context, llvm::Value* value, int128_t min, int128_t max,
                 llvm::Value* null, const std::string& message);

// Calls a runtime function, widening or narrowing integer arguments to its declared parameter
// types (bools are i1 in registers). Functions declared to return bool give an i1.
llvm::Value* call_runtime(CodegenContext& context, const std::string& name,
                          const std::vector<llvm::Value*>& arguments);

}  // namespace floe::codegen
