// runtime_abi.h: errors, scans, hash join, aggregation and materialized rows.
#include "runtime/aggregation_hash_table.h"
#include "runtime/join_hash_table.h"
#include "runtime/row_buffer.h"
#include "runtime/runtime_abi.h"
#include "runtime/table_scanner.h"

using floe::AggregationEntry;
using floe::AggregationHashTable;
using floe::JoinEntry;
using floe::JoinHashTable;
using floe::RowBuffer;
using floe::TableScanner;
using floe::WorkerContext;

extern "C" {

void floe_rt_fail(WorkerContext* worker, const char* message) {
  worker->query->fail(message);
}

bool floe_rt_check_canceled(WorkerContext* worker) {
  return !worker->query->check_canceled();
}

bool floe_rt_scan_open(TableScanner* cursor, uint64_t begin, uint64_t end) {
  return cursor->open(begin, end);
}

uint32_t floe_rt_scan_next(TableScanner* cursor, FloeScanBatch* batch) {
  return cursor->next(*batch);
}

uint8_t* floe_rt_join_insert(JoinHashTable* table, WorkerContext* worker, uint64_t hash) {
  return table->insert(worker->worker_id, hash);
}

JoinEntry* floe_rt_join_lookup(JoinHashTable* table, uint64_t hash) {
  return table->lookup(hash);
}

JoinEntry* floe_rt_join_next(JoinEntry* entry, uint64_t hash) {
  return JoinHashTable::next(entry, hash);
}

uint8_t* floe_rt_join_payload(JoinEntry* entry) {
  return entry->payload();
}

JoinEntry* floe_rt_join_slot_chain(JoinHashTable* table, uint64_t slot) {
  return table->slot_chain(slot);
}

JoinEntry* floe_rt_join_first(JoinHashTable* table) {
  return table->first();
}

JoinEntry* floe_rt_join_following(JoinEntry* entry, JoinHashTable* table) {
  return table->following(entry);
}

AggregationEntry* floe_rt_agg_lookup(AggregationHashTable* table, WorkerContext* worker,
                                     uint64_t hash) {
  return table->lookup(worker->worker_id, hash);
}

AggregationEntry* floe_rt_agg_next(AggregationEntry* entry, uint64_t hash) {
  return AggregationHashTable::next(entry, hash);
}

uint8_t* floe_rt_agg_global_group(AggregationHashTable* table, WorkerContext* worker) {
  return table->global_group(worker->worker_id);
}

uint8_t* floe_rt_agg_insert(AggregationHashTable* table, WorkerContext* worker, uint64_t hash) {
  return table->insert(worker->worker_id, hash);
}

uint8_t* floe_rt_agg_payload(AggregationEntry* entry) {
  return entry->payload();
}

uint8_t* floe_rt_agg_row(AggregationHashTable* table, uint64_t index) {
  return table->row(index);
}

uint8_t* floe_rt_rows_append(RowBuffer* buffer, WorkerContext* worker) {
  return buffer->append(worker->worker_id);
}

uint8_t* floe_rt_rows_at(RowBuffer* buffer, uint64_t index) {
  return buffer->row(index);
}

}  // extern "C"
