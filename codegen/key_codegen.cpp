#include "codegen/key_codegen.h"

#include "runtime/hash.h"

namespace floe::codegen {

llvm::Value* hash_keys(PipelineEnv& env, const std::vector<SqlValue>& keys,
                       const std::vector<SqlType>& types) {
  auto& b = env.builder();
  llvm::Value* hash = b.getInt64(0);
  for (size_t i = 0; i < keys.size(); ++i) {
    SqlValue safe{zero_if_null(env.codegen, keys[i]), nullptr};
    llvm::Value* value_hash = env.expressions.hash(safe, types[i], hash);
    if (keys[i].null) {
      // runtime/hash.h's hash_null_key.
      auto* null_hash = b.CreateXor(hash, b.getInt64(kNullKeyHash));
      value_hash = b.CreateSelect(keys[i].null, null_hash, value_hash);
    }
    hash = value_hash;
  }
  return hash;
}

llvm::Value* keys_equal(PipelineEnv& env, const std::vector<SqlValue>& a,
                        const std::vector<SqlValue>& b, const std::vector<SqlType>& types) {
  auto& builder = env.builder();
  llvm::Value* all_equal = builder.getTrue();
  for (size_t i = 0; i < a.size(); ++i) {
    llvm::Value* equal = env.expressions.equal(zero_if_null(env.codegen, a[i]),
                                               zero_if_null(env.codegen, b[i]), types[i]);
    if (a[i].null || b[i].null) {
      llvm::Value* a_null = a[i].null ? a[i].null : builder.getFalse();
      llvm::Value* b_null = b[i].null ? b[i].null : builder.getFalse();
      // Both NULL: equal. One NULL: different. Neither: compare the values.
      auto* same_nullness = builder.CreateICmpEQ(a_null, b_null);
      equal = builder.CreateAnd(same_nullness, builder.CreateOr(a_null, equal));
    }
    all_equal = builder.CreateAnd(all_equal, equal);
  }
  return all_equal;
}

}  // namespace floe::codegen
