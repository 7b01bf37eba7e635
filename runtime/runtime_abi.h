// Every function that generated code may call, by symbol (DESIGN.md "Compiled execution").
// This header is the single source of truth for that boundary: the code generator declares
// exactly these signatures in its LLVM modules and binds these addresses in the JIT.
//
// Conventions:
//  - Strings cross the boundary as two uint64 halves of a StringRef (lo = length|prefix,
//    hi = inline bytes or pointer), and come back as a FloeString (returned in rax:rdx).
//  - Functions that can fail take the WorkerContext, record the error with
//    QueryContext::fail and return false / a null pointer; the generated code then returns
//    from the pipeline function. Nothing here throws into generated code.
#pragma once

#include <cstdint>

#include "runtime/query_context.h"

namespace floe {
class TableScanner;
class JoinHashTable;
class ConciseJoinTable;
struct ConciseCursor;
class AggregationHashTable;
class SortBuffer;
class RowBuffer;
class LikeMatcher;
class TableFunctionCursor;
struct TableFunction;
struct FunctionSlot;
struct JoinEntry;
struct AggregationEntry;
struct Interval;
}  // namespace floe

extern "C" {

struct FloeString {
  uint64_t lo;
  uint64_t hi;
};

// One batch of consecutive rows of a table (DESIGN.md "Scans"). columns[i] points at the
// first row's value of the i-th requested column; validity[i] is null for NOT NULL columns,
// otherwise bit (validity_offset + row) tells whether row's value is present.
// When `selection` is not null, the batch's rows are selection[0..count) instead of
// 0..count: a hot chunk's matches are handed over as positions into its arrays rather than
// copied (Data Blocks paper §4: "a selection vector or compacted batches").
struct FloeScanBatch {
  uint32_t count;
  uint32_t validity_offset;
  const void* const* columns;
  const uint64_t* const* validity;
  const uint32_t* selection;
};

// ---- errors -------------------------------------------------------------------------
void floe_rt_fail(floe::WorkerContext* worker, const char* message);
// False (with the failure recorded) once the statement was canceled (runtime/cancellation.h).
bool floe_rt_check_canceled(floe::WorkerContext* worker);

// ---- scans --------------------------------------------------------------------------
// Restarts `scanner` on rows [begin, end) of its table. Returns false on error.
bool floe_rt_scan_open(floe::TableScanner* cursor, uint64_t begin, uint64_t end);
// Fills `batch` with up to the cursor's vector size rows; returns the count, 0 when done.
uint32_t floe_rt_scan_next(floe::TableScanner* cursor, FloeScanBatch* batch);

// ---- hash join (chaining, tagged directory) -----------------------------------------
// Build side: reserves an entry for a row with this hash in the worker's local storage and
// returns a pointer to its payload (JoinHashTable::payload_size bytes), to be filled.
uint8_t* floe_rt_join_insert(floe::JoinHashTable* table, floe::WorkerContext* worker,
                             uint64_t hash);
// Probe side: first entry whose hash matches (tag-filtered), or null.
floe::JoinEntry* floe_rt_join_lookup(floe::JoinHashTable* table, uint64_t hash);
// Next entry after `entry` with the same hash, or null.
floe::JoinEntry* floe_rt_join_next(floe::JoinEntry* entry, uint64_t hash);
uint8_t* floe_rt_join_payload(floe::JoinEntry* entry);
// All entries of directory slot `slot` (JoinHashTable::slot_chain), or null.
floe::JoinEntry* floe_rt_join_slot_chain(floe::JoinHashTable* table, uint64_t slot);
// All entries, chain after chain (JoinHashTable::first / following); the table comes second
// so that the walk has the shape of a chain walk by hash.
floe::JoinEntry* floe_rt_join_first(floe::JoinHashTable* table);
floe::JoinEntry* floe_rt_join_following(floe::JoinEntry* entry, floe::JoinHashTable* table);

// ---- hash join (CHT / CAT: runtime/concise_join_table.h) ---------------------------
// `key`: the join's integer key values (when the table may become a CAT), else unused.
// Build side: a new row with this hash and key for the worker; returns its payload.
uint8_t* floe_rt_concise_insert(floe::ConciseJoinTable* table, floe::WorkerContext* worker,
                                uint64_t hash, const int64_t* key);
// Probe side: the first candidate's payload, or null; `cursor` (8 bytes) keeps the place.
uint8_t* floe_rt_concise_lookup(floe::ConciseJoinTable* table, uint64_t hash, const int64_t* key,
                                floe::ConciseCursor* cursor);
// The next candidate's payload after the cursor's, or null.
uint8_t* floe_rt_concise_next(floe::ConciseJoinTable* table, uint64_t hash, const int64_t* key,
                              floe::ConciseCursor* cursor);
// False when no row can have this hash and key (the bitmap, VLDB 2015 section 3.1).
bool floe_rt_concise_may_contain(floe::ConciseJoinTable* table, uint64_t hash, const int64_t* key);
// Row `position` of [0, size) (its payload), or null past the end.
uint8_t* floe_rt_concise_row(floe::ConciseJoinTable* table, uint64_t position);

// ---- aggregation ---------------------------------------------------------------------
// First entry in the worker's table with this hash, or null; follow with _next.
floe::AggregationEntry* floe_rt_agg_lookup(floe::AggregationHashTable* table,
                                           floe::WorkerContext* worker, uint64_t hash);
floe::AggregationEntry* floe_rt_agg_next(floe::AggregationEntry* entry, uint64_t hash);
// Inserts a zeroed group row with this hash into the worker's table; returns its payload.
uint8_t* floe_rt_agg_insert(floe::AggregationHashTable* table, floe::WorkerContext* worker,
                            uint64_t hash);
uint8_t* floe_rt_agg_payload(floe::AggregationEntry* entry);
// Without GROUP BY: the payload of the worker's one group (inserted on first use). Called
// once per pipeline invocation, not per row.
uint8_t* floe_rt_agg_global_group(floe::AggregationHashTable* table, floe::WorkerContext* worker);
// After the build pipeline finished and the table was merged: the i-th group row.
uint8_t* floe_rt_agg_row(floe::AggregationHashTable* table, uint64_t index);

// ---- materialized rows (sort input, query result) ------------------------------------
// Appends a zeroed row of the buffer's row size; returns it.
uint8_t* floe_rt_rows_append(floe::RowBuffer* buffer, floe::WorkerContext* worker);
// After finishing (and sorting): the i-th row.
uint8_t* floe_rt_rows_at(floe::RowBuffer* buffer, uint64_t index);

// ---- hashing -------------------------------------------------------------------------
uint64_t floe_rt_hash_string(uint64_t lo, uint64_t hi, uint64_t seed);

// ---- strings -------------------------------------------------------------------------
bool floe_rt_string_equal(uint64_t a_lo, uint64_t a_hi, uint64_t b_lo, uint64_t b_hi);
int32_t floe_rt_string_compare(uint64_t a_lo, uint64_t a_hi, uint64_t b_lo, uint64_t b_hi);
bool floe_rt_like(const floe::LikeMatcher* matcher, uint64_t lo, uint64_t hi);

// ---- casts involving text ------------------------------------------------------------
// From text: return false (after recording the error) on invalid input.
// To integer type `to` (a floe::TypeId: smallint, integer or bigint).
bool floe_rt_cast_string_to_integer(floe::WorkerContext* worker, uint64_t lo, uint64_t hi,
                                    uint32_t to, int64_t* out);
bool floe_rt_cast_string_to_double(floe::WorkerContext* worker, uint64_t lo, uint64_t hi,
                                   double* out);
bool floe_rt_cast_string_to_decimal(floe::WorkerContext* worker, uint64_t lo, uint64_t hi,
                                    uint32_t precision, uint32_t scale, __int128* out);
bool floe_rt_cast_string_to_date(floe::WorkerContext* worker, uint64_t lo, uint64_t hi,
                                 int32_t* out);
bool floe_rt_cast_string_to_timestamp(floe::WorkerContext* worker, uint64_t lo, uint64_t hi,
                                      int64_t* out);
bool floe_rt_cast_string_to_bool(floe::WorkerContext* worker, uint64_t lo, uint64_t hi, bool* out);
// An explicit cast to CHAR(n)/VARCHAR(n) (n = 0: unbounded): cuts to n characters; is_char
// strips trailing blanks. Never fails.
FloeString floe_rt_cast_string_to_string(uint64_t lo, uint64_t hi, uint32_t max_length,
                                         bool is_char);
// To text, in PostgreSQL's output format.
FloeString floe_rt_cast_int64_to_string(floe::WorkerContext* worker, int64_t value);
FloeString floe_rt_cast_double_to_string(floe::WorkerContext* worker, double value);
FloeString floe_rt_cast_decimal_to_string(floe::WorkerContext* worker, __int128 value,
                                          uint32_t scale);
FloeString floe_rt_cast_date_to_string(floe::WorkerContext* worker, int32_t days);
FloeString floe_rt_cast_timestamp_to_string(floe::WorkerContext* worker, int64_t micros);
FloeString floe_rt_cast_bool_to_string(floe::WorkerContext* worker, bool value);
bool floe_rt_cast_string_to_interval(floe::WorkerContext* worker, uint64_t lo, uint64_t hi,
                                     floe::Interval* out);
FloeString floe_rt_cast_interval_to_string(floe::WorkerContext* worker, int32_t months,
                                           int32_t days, int64_t micros);

// ---- casts between numbers, dates and timestamps (storage/numeric_casts.h) -----------
// Return false (after recording the error) when the value does not convert. `to` is the
// floe::TypeId of an integer type.
bool floe_rt_cast_double_to_integer(floe::WorkerContext* worker, double value, uint32_t to,
                                    int64_t* out);
bool floe_rt_cast_decimal_to_integer(floe::WorkerContext* worker, __int128 value, uint32_t scale,
                                     uint32_t to, int64_t* out);
double floe_rt_cast_decimal_to_double(__int128 value, uint32_t scale);
bool floe_rt_cast_double_to_decimal(floe::WorkerContext* worker, double value,
                                    uint32_t precision, uint32_t scale, __int128* out);
bool floe_rt_cast_date_to_timestamp(floe::WorkerContext* worker, int32_t days, int64_t* out);
int32_t floe_rt_cast_timestamp_to_date(int64_t micros);

// ---- decimals (storage/decimal.h) ---------------------------------------------------
// rescale_decimal: `value` of scale from_scale as numeric(to_precision, to_scale), rounding
// half away from zero; false (after recording "numeric field overflow") when it does not fit.
bool floe_rt_decimal_rescale(floe::WorkerContext* worker, __int128 value, uint32_t from_scale,
                             uint32_t to_precision, uint32_t to_scale, __int128* out);

// ---- aggregates (codegen/aggregate_states.h) ----------------------------------------
// A variance function's kind: the sample (n − 1) or population (n) form, and whether the
// square root (stddev) is taken.
enum FloeVarianceKind : int32_t { kFloeVarianceSample = 1, kFloeVarianceRoot = 2 };
// Variance of `count` (>= 1) values of scale `scale` from their exact sum and sum of squares
// (scale 2·scale): (n·Σx² − (Σx)²) / (n·(n−1) or n²), as PostgreSQL's numeric_stddev_internal,
// rounded once to double (a negative numerator counts as 0).
double floe_rt_variance_exact(int64_t count, __int128 sum, __int128 squares, int32_t scale,
                              int32_t kind);
// Variance of `count` (>= 1) doubles from their sum of squared deviations (float8_var_*).
double floe_rt_variance_double(int64_t count, double squares, int32_t kind);
// avg of `count` (>= 1) exact values from their sum at `scale` decimals
// (runtime/aggregate_math.h's exact_average).
double floe_rt_average_exact(__int128 sum, int64_t count, int32_t scale);
// The variance accumulators (runtime/aggregate_math.h) of a group row: `count` (i64), `sum`
// and `squares` (double, or i128 for exact input) point at its fields. Adding a value, and
// merging another row's accumulators into them; the exact forms return false after recording
// "numeric field overflow".
void floe_rt_variance_add_double(uint8_t* count, uint8_t* sum, uint8_t* squares, double x);
bool floe_rt_variance_add_exact(floe::WorkerContext* worker, uint8_t* count, uint8_t* sum,
                                uint8_t* squares, __int128 x);
void floe_rt_variance_combine_double(uint8_t* count, uint8_t* sum, uint8_t* squares,
                                     const uint8_t* from_count, const uint8_t* from_sum,
                                     const uint8_t* from_squares);
bool floe_rt_variance_combine_exact(floe::WorkerContext* worker, uint8_t* count, uint8_t* sum,
                                    uint8_t* squares, const uint8_t* from_count,
                                    const uint8_t* from_sum, const uint8_t* from_squares);

// Collected aggregates (runtime/collected_values.h). `list` points at a group's
// CollectedList; slots are 16-byte physical values. `order` is the key's PhysicalType with
// FloeCollectedOrder flags (no kFloeOrderKey: the list's order).
enum FloeCollectedOrder : int32_t {
  kFloeOrderKey = 0x100,
  kFloeOrderDescending = 0x200,
  kFloeOrderNullsFirst = 0x400,
  kFloeOrderDistinct = 0x800,
};
// key_null: a NULL key (string_agg's ORDER BY). value/delimiter: unused by the WITHIN GROUP
// aggregates.
void floe_rt_collect(floe::WorkerContext* worker, uint8_t* list, const uint8_t* key, bool key_null,
                     const uint8_t* value, const uint8_t* delimiter, int32_t order);
void floe_rt_collect_merge(uint8_t* into, uint8_t* from);
FloeString floe_rt_string_agg(floe::WorkerContext* worker, const uint8_t* list, int32_t order);
// Non-empty lists. False (with "percentile value ... is not between 0 and 1") for a bad
// fraction.
bool floe_rt_percentile_cont(floe::WorkerContext* worker, const uint8_t* list, double fraction,
                             int32_t order, double* out);
bool floe_rt_percentile_disc(floe::WorkerContext* worker, const uint8_t* list, double fraction,
                             int32_t order, uint8_t* out);
void floe_rt_mode(const uint8_t* list, int32_t order, uint8_t* out);

// ---- dates -----------------------------------------------------------------------------
// EXTRACT: part is a floe::DatePart; the results are numerics scaled as extract_type says
// (storage/date_part.h).
int64_t floe_rt_extract_date(int32_t part, int32_t days);
int64_t floe_rt_extract_timestamp(int32_t part, int64_t micros);
__int128 floe_rt_extract_interval(int32_t part, int32_t months, int32_t days, int64_t micros);
// interval * factor, interval / divisor; false (with the error recorded) on overflow or
// division by zero.
bool floe_rt_interval_multiply(floe::WorkerContext* worker, int32_t months, int32_t days,
                               int64_t micros, double factor, floe::Interval* out);
bool floe_rt_interval_divide(floe::WorkerContext* worker, int32_t months, int32_t days,
                             int64_t micros, double divisor, floe::Interval* out);
int32_t floe_rt_date_add_months(int32_t days, int32_t months);
int64_t floe_rt_timestamp_add_interval(int64_t micros, int32_t months, int32_t days,
                                       int64_t interval_micros);

// ---- set-returning functions in FROM (runtime/table_function.h) ----------------------
// Starts a call of `function` on `arguments` (one slot each) with its cursor in `storage`
// (kTableFunctionCursorSize bytes). Returns the cursor, or null after recording the error.
floe::TableFunctionCursor* floe_rt_table_function_open(floe::WorkerContext* worker,
                                                       const floe::TableFunction* function,
                                                       void* storage,
                                                       const floe::FunctionSlot* arguments);
// The call's next value into `value`: 1, or 0 when there is none, -1 after recording an error.
int32_t floe_rt_table_function_next(floe::WorkerContext* worker, floe::TableFunctionCursor* cursor,
                                    floe::FunctionSlot* value);

}  // extern "C"
