// Hashing and comparison of composite keys (join keys, group keys) in generated code.
#pragma once

#include <vector>

#include "codegen/translator.h"

namespace floe::codegen {

// 64-bit hash of the keys, column by column; a NULL key column contributes a fixed value,
// so NULLs hash alike (they group together).
llvm::Value* hash_keys(PipelineEnv& env, const std::vector<SqlValue>& keys,
                       const std::vector<SqlType>& types);

// i1: all key columns equal, where NULL equals NULL (GROUP BY semantics). Join keys are never
// NULL when compared, so this also serves joins.
llvm::Value* keys_equal(PipelineEnv& env, const std::vector<SqlValue>& a,
                        const std::vector<SqlValue>& b, const std::vector<SqlType>& types);

}  // namespace floe::codegen
