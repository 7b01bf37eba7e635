// Inline 64-bit hashing of join and group keys (strings go to the runtime). Values that compare
// equal hash alike: -0.0 and 0.0, every NaN, intervals of equal span.
#pragma once

#include "codegen/codegen_context.h"

namespace floe::codegen {

// Hash of a non-null value of `type`, combined with the i64 `seed` (chain for several keys).
llvm::Value* hash_value(CodegenContext& context, llvm::Value* value, const SqlType& type,
                        llvm::Value* seed);

}  // namespace floe::codegen
