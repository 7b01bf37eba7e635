// The hash join's table as the generated build and probe code uses it (join_codegen.h):
// chaining (JoinHashTable, runtime/join_hash_table.h) or CHT/CAT (ConciseJoinTable,
// runtime/concise_join_table.h; Barber et al., "Memory-Efficient Hash Joins", VLDB 2015).
#include "codegen/join_codegen.h"
#include "runtime/join_hash_table.h"

namespace floe::codegen {

namespace {

bool concise(const Materialization& rows) {
  return rows.join_table != plan::JoinTableKind::kChaining;
}

// The keys as int64 values in an array for a table that may become a CAT (NULL as 0), else a
// null pointer.
llvm::Value* cat_key_array(PipelineEnv& env, const Materialization& rows,
                           const std::vector<SqlValue>& keys) {
  auto& b = env.builder();
  if (rows.join_table == plan::JoinTableKind::kCht)
    return llvm::ConstantPointerNull::get(b.getPtrTy());
  auto* array = env.entry_alloca(llvm::ArrayType::get(b.getInt64Ty(), keys.size()));
  for (size_t k = 0; k < keys.size(); ++k) {
    llvm::Value* value = b.CreateSExtOrTrunc(keys[k].value, b.getInt64Ty());
    if (keys[k].null) value = b.CreateSelect(keys[k].null, b.getInt64(0), value);
    b.CreateStore(value, b.CreateConstInBoundsGEP1_64(b.getInt64Ty(), array, k));
  }
  return array;
}

}  // namespace

llvm::Value* emit_join_insert(PipelineEnv& env, const Materialization& rows, llvm::Value* hash,
                              const std::vector<SqlValue>& keys) {
  auto& b = env.builder();
  auto* table = env.slot_pointer(rows.slot);
  if (!concise(rows)) {
    return b.CreateCall(env.codegen.runtime_function("floe_rt_join_insert"),
                        {table, env.codegen.worker(), hash}, "join_payload");
  }
  return b.CreateCall(env.codegen.runtime_function("floe_rt_concise_insert"),
                      {table, env.codegen.worker(), hash, cat_key_array(env, rows, keys)},
                      "join_payload");
}

void emit_join_candidates(
    PipelineEnv& env, const Materialization& rows, llvm::Value* hash,
    const std::vector<SqlValue>& keys, const std::string& name,
    const std::function<void(llvm::Value* payload, llvm::BasicBlock* advance)>& visit) {
  auto& b = env.builder();
  auto* table = env.slot_pointer(rows.slot);
  if (!concise(rows)) {
    auto* first = b.CreateCall(env.codegen.runtime_function("floe_rt_join_lookup"), {table, hash});
    env.emit_chain_walk(
        first, hash, "floe_rt_join_next", name, [&](llvm::Value* entry, llvm::BasicBlock* advance) {
          visit(b.CreateConstInBoundsGEP1_32(b.getInt8Ty(), entry, sizeof(JoinEntry), "payload"),
                advance);
        });
    return;
  }
  // The cursor (ConciseCursor, 8 bytes) keeps the walk's place between the calls.
  auto* cursor = env.entry_alloca(b.getInt64Ty());
  auto* key_array = cat_key_array(env, rows, keys);
  auto* first = b.CreateCall(env.codegen.runtime_function("floe_rt_concise_lookup"),
                             {table, hash, key_array, cursor});
  env.emit_chain_walk(
      first,
      [&](llvm::Value*) {
        return b.CreateCall(env.codegen.runtime_function("floe_rt_concise_next"),
                            {table, hash, key_array, cursor});
      },
      name, visit);
}

void emit_join_all_rows(
    PipelineEnv& env, const Materialization& rows, const std::string& name,
    const std::function<void(llvm::Value* payload, llvm::BasicBlock* advance)>& visit) {
  auto& b = env.builder();
  auto* table = env.slot_pointer(rows.slot);
  if (!concise(rows)) {
    auto* first = b.CreateCall(env.codegen.runtime_function("floe_rt_join_first"), {table});
    env.emit_chain_walk(
        first, table, "floe_rt_join_following", name,
        [&](llvm::Value* entry, llvm::BasicBlock* advance) {
          visit(b.CreateConstInBoundsGEP1_32(b.getInt8Ty(), entry, sizeof(JoinEntry), "payload"),
                advance);
        });
    return;
  }
  auto* position = env.entry_alloca(b.getInt64Ty());
  b.CreateStore(b.getInt64(0), position);
  auto* first =
      b.CreateCall(env.codegen.runtime_function("floe_rt_concise_row"), {table, b.getInt64(0)});
  env.emit_chain_walk(
      first,
      [&](llvm::Value*) {
        auto* next = b.CreateAdd(b.CreateLoad(b.getInt64Ty(), position), b.getInt64(1));
        b.CreateStore(next, position);
        return b.CreateCall(env.codegen.runtime_function("floe_rt_concise_row"), {table, next});
      },
      name, visit);
}

llvm::Value* emit_join_may_contain(PipelineEnv& env, const Materialization& rows, llvm::Value* hash,
                                   const std::vector<SqlValue>& keys) {
  auto& b = env.builder();
  if (!concise(rows)) return b.getTrue();
  return b.CreateCall(env.codegen.runtime_function("floe_rt_concise_may_contain"),
                      {env.slot_pointer(rows.slot), hash, cat_key_array(env, rows, keys)});
}

}  // namespace floe::codegen
