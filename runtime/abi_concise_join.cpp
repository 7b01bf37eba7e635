// runtime_abi.h: the hash join over a CHT or CAT (runtime/concise_join_table.h).
#include "runtime/concise_join_table.h"
#include "runtime/runtime_abi.h"

using floe::ConciseCursor;
using floe::ConciseJoinTable;
using floe::WorkerContext;

extern "C" {

uint8_t* floe_rt_concise_insert(ConciseJoinTable* table, WorkerContext* worker, uint64_t hash,
                                const int64_t* key) {
  return table->insert(worker->worker_id, hash, key);
}

uint8_t* floe_rt_concise_lookup(ConciseJoinTable* table, uint64_t hash, const int64_t* key,
                                ConciseCursor* cursor) {
  return table->lookup(hash, key, cursor);
}

uint8_t* floe_rt_concise_next(ConciseJoinTable* table, uint64_t hash, const int64_t* key,
                              ConciseCursor* cursor) {
  return table->next(hash, key, cursor);
}

bool floe_rt_concise_may_contain(ConciseJoinTable* table, uint64_t hash, const int64_t* key) {
  return table->may_contain(hash, key);
}

uint8_t* floe_rt_concise_row(ConciseJoinTable* table, uint64_t position) {
  return position < table->size() ? table->row(static_cast<uint32_t>(position)) : nullptr;
}

}  // extern "C"
