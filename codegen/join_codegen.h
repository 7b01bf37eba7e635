// What the hash join translator (hash_join_translator.cpp) shares with the mark join probe
// (mark_join_translator.cpp).
#pragma once

#include <functional>
#include <string>
#include <vector>

#include "codegen/translator.h"

namespace floe::codegen {

// The SqlType of each key pair of the join.
std::vector<SqlType> join_key_types(const plan::JoinOp& join);

// Compiles the keys on one side. A NULL among the first `strict` keys branches to `on_null`
// (all keys when `on_null` is null are kept, NULL or not); the later keys keep their NULLs.
std::vector<SqlValue> compile_join_keys(PipelineEnv& env, const plan::JoinOp& join, bool build_side,
                                        const Tuple& tuple, llvm::BasicBlock* on_null,
                                        size_t strict);

// The probe tuple with the build columns of the entry `payload` (whose key fields hold
// `build_keys`); branches to `reject` unless the join's residual is true on the pair.
Tuple join_pair(PipelineEnv& env, const plan::JoinOp& join, const Materialization& rows,
                const Tuple& probe, llvm::Value* payload, const std::vector<SqlValue>& build_keys,
                llvm::BasicBlock* reject);

// The join's table (join_table_codegen.cpp): chaining, or a CHT/CAT (ConciseJoinTable) as
// the join's Materialization::join_table says. A CHT/CAT also takes the integer key values
// (NULL as 0) where it may become a CAT.
// The payload of a new build row with this hash and these keys.
llvm::Value* emit_join_insert(PipelineEnv& env, const Materialization& rows, llvm::Value* hash,
                              const std::vector<SqlValue>& keys);
// Visits the candidate rows of this hash and these keys: visit(payload, advance) emits code
// for one and branches to `advance` to go on (or elsewhere to leave). Afterwards the
// insertion point is where the candidates are exhausted. Polls the cancel flag.
void emit_join_candidates(
    PipelineEnv& env, const Materialization& rows, llvm::Value* hash,
    const std::vector<SqlValue>& keys, const std::string& name,
    const std::function<void(llvm::Value* payload, llvm::BasicBlock* advance)>& visit);
// Visits every stored row the same way.
void emit_join_all_rows(
    PipelineEnv& env, const Materialization& rows, const std::string& name,
    const std::function<void(llvm::Value* payload, llvm::BasicBlock* advance)>& visit);
// Whether the join's table may hold a row with this hash and keys (a CHT/CAT's bitmap; always
// true for chaining; bitmap_filter_translator.cpp).
llvm::Value* emit_join_may_contain(PipelineEnv& env, const Materialization& rows, llvm::Value* hash,
                                   const std::vector<SqlValue>& keys);

// The hash a mark join's build row is stored under: that of all its keys, or, when one of its
// mark keys is NULL, that of its keys with every mark key NULL, so that the rows that can
// only make a mark unknown share one chain per value of the other keys.
llvm::Value* mark_join_build_hash(PipelineEnv& env, const plan::JoinOp& join,
                                  const std::vector<SqlValue>& keys);

// The early bitmap filter (bitmap_filter_translator.cpp) placed before the pipeline's
// operator at `position`, the first CHT/CAT join; null where fewer than two joins take part.
std::unique_ptr<Consumer> make_bitmap_filter(PipelineEnv& env, const plan::Pipeline& pipeline,
                                             size_t position, Consumer& next);

std::unique_ptr<Consumer> make_mark_join_probe(PipelineEnv& env, const plan::JoinOp& join,
                                               Consumer& next);

}  // namespace floe::codegen
