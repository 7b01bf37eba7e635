// What the vectorized hash join's build sink, probe operators and unmatched-rows source share
// (X100 thesis §5.3, the vectorized hash join; DESIGN.md "Hash join"): the join keys of a
// chunk, hashed bit-identically to generated code (codegen/key_codegen.cpp hash_keys,
// mark_join_translator.cpp's hash with NULL mark keys), and the candidate walk over the join
// table the plan chose (chaining, or a CHT/CAT: Barber et al., VLDB 2015, sections 2-2.4),
// one current candidate per probe row, so that each step visits at most one row per probe
// row and the steps' output respects the vector size.
#pragma once

#include <cstdint>
#include <vector>

#include "engine/vector/chunk_operator.h"
#include "engine/vector/row_field_offsets.h"
#include "engine/vector/expression_executor.h"
#include "runtime/concise_join_table.h"
#include "runtime/join_hash_table.h"
#include "runtime/vector/row_scatter.h"
#include "runtime/vector/row_slot.h"

namespace floe::vectorized {

// A hash join's table in the query's state array: chaining, or a CHT/CAT whose inserts and
// lookups take `cat_key_columns` integer keys (0: a CHT only).
struct JoinTableRef {
  JoinHashTable* chaining = nullptr;
  ConciseJoinTable* concise = nullptr;
  uint32_t cat_key_columns = 0;
};
JoinTableRef join_table_of(const PipelineContext& context, const plan::Materialization& rows);

// The hash join's keys over one chunk: the build or the probe expressions of `join`.
class JoinKeys {
 public:
  JoinKeys(const PipelineContext& context, const plan::JoinOp& join, bool build_side,
           const ChunkColumns& input);

  // Evaluates the keys over the chunk's rows.
  void evaluate(const DataChunk& chunk);
  const Vector& key(size_t k) const { return keys_[k]; }
  size_t count() const { return keys_.size(); }
  // The keys that are never NULL in a stored row (all but a mark join's mark keys).
  size_t strict() const { return strict_; }

  // Of rows sel[0..n), writes to `out` (may be `sel`) those whose keys [0, count) are all
  // present; returns their count.
  uint32_t present(const uint32_t* sel, uint32_t n, size_t count, uint32_t* out) const;
  // hashes[p] for the rows sel[0..n): the hash of all keys, or with `null_marks` of the
  // strict keys followed by NULL mark keys. With `mark_build`, a row with a NULL mark key
  // gets the latter (a mark join's stored rows).
  void hash(const uint32_t* sel, uint32_t n, uint64_t* hashes, bool null_marks,
            bool mark_build) const;
  // The keys as int64 values, `count()` per row at out[p * count()] (NULL as 0): a CAT's key.
  void integer_keys(const uint32_t* sel, uint32_t n, int64_t* out) const;

 private:
  const plan::JoinOp& join_;
  bool build_side_;
  ExpressionExecutor executor_;
  std::vector<Vector> keys_;
  size_t strict_;
};

// The join table of a hash join's Materialization as the probe walks it.
class JoinCandidates {
 public:
  JoinCandidates(const PipelineContext& context, const plan::Materialization& rows);

  // Per-position state for a chunk whose positions are below `extent`; the caller fills
  // hashes() (and, when cat_key_columns() > 0, cat_keys()) before find().
  void reserve(uint32_t extent);
  uint64_t* hashes() { return hashes_.data(); }
  int64_t* cat_keys() { return cat_keys_.data(); }
  uint32_t cat_key_columns() const { return table_.cat_key_columns; }

  // Of rows sel[0..n), starts each row's walk at its first candidate (by its hash and key)
  // and writes the rows that have one to `out` (may be `sel`); returns their count.
  uint32_t find(const uint32_t* sel, uint32_t n, uint32_t* out);
  // The same over every stored row (a mark join's probe with a NULL mark key).
  uint32_t find_all(const uint32_t* sel, uint32_t n, uint32_t* out);
  // Moves each row's walk to its next candidate; keeps the rows that have one.
  uint32_t advance(const uint32_t* sel, uint32_t n, uint32_t* out);
  // Each row's current candidate's payload, by position.
  uint8_t* const* payloads() const { return payloads_.data(); }

 private:
  bool step(uint32_t p);
  // Row p's CAT key (null without CAT key columns).
  const int64_t* cat_key(uint32_t p) const {
    return table_.cat_key_columns ? &cat_keys_[size_t{p} * table_.cat_key_columns] : nullptr;
  }

  JoinTableRef table_;
  std::vector<uint64_t> hashes_;
  std::vector<int64_t> cat_keys_;
  std::vector<uint8_t*> payloads_;
  std::vector<JoinEntry*> entries_;     // chaining: the current entry
  std::vector<ConciseCursor> cursors_;  // CHT/CAT: the walk's place
  std::vector<uint8_t> all_rows_;       // 1: the walk visits every stored row
};

// The joined rows of a probe (the probe chunk's columns, then the build columns that the
// plan reads, from their payload fields) and where the join keys are in the payload.
class JoinedRows {
 public:
  JoinedRows(const PipelineContext& context, const plan::JoinOp& join, const ChunkColumns& probe);

  // Where each plan column of a joined chunk is: a residual's or mark condition's columns.
  const ChunkColumns& columns() const { return columns_; }
  // Key k's field of the payload.
  const RowSlot& key_slot(size_t k) const { return key_slots_[k]; }

  // The probe rows at `positions` and their build rows `payloads`, n of each, as a chunk of
  // columns() (probe values by take_values, build values by gather_column): the pairs a
  // residual is evaluated on and inner/outer joins push. Null `payloads` gives NULL build
  // columns (an outer join's unmatched probe rows).
  DataChunk chunk(const DataChunk& probe, const uint32_t* positions,
                  const uint8_t* const* payloads, uint32_t n) const;
  // The build columns of the pairs alone, positions 0..n (logical compaction's join output,
  // whose probe columns are referenced, logical_chunk.h).
  std::vector<Vector> build_columns(const uint8_t* const* payloads, uint32_t n) const;
  size_t probe_width() const { return probe_width_; }

 private:
  const plan::RowLayout& layout_;
  uint32_t capacity_;
  size_t probe_width_;
  ChunkColumns columns_;
  std::vector<size_t> build_fields_;  // the build columns' payload fields, in column order
  std::vector<RowSlot> key_slots_;
};

}  // namespace floe::vectorized
