// Chunk compaction (Qiao & Zhang, "Data Chunk Compaction in Vectorized Execution", SIGMOD
// 2024, sections 3-4): filters and hash joins, the chunk-reducing operators, may emit chunks
// with few rows, and every operator above pays its per-chunk overhead for each of them. A
// compactor after such an operator copies the rows of small chunks into a buffer chunk and
// pushes that on once it is nearly full (`SET compaction`, plan::CompactionStrategy):
//  - full: every chunk that is not full is buffered; the buffer goes on when full;
//  - binary (DuckDB's): chunks of at most 128 rows are buffered, the buffer goes on at >= 1920;
//  - learned: as binary, with the threshold of each chunk picked by the operator's
//    CompactionLearner (runtime/compaction_learner.h), one per operator, shared by workers;
//  - logical (§5): no compactor; inner hash joins without residual merge the pairs of one
//    probe chunk without copying its columns (hash_join_probe.cpp, logical_chunk.h);
//  - smart (§6.7): logical, plus learned compactors after filters and joins, which copy the
//    rows of small chunks whether plain or logical.
// (Values for a vector size of 2048; they scale with the vector size.) Larger chunks pass
// untouched. Each worker has its own buffers; VectorPipeline flushes them at the end of every
// morsel. In a pipeline that must keep its rows' order the buffer goes on before a chunk
// passes.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <unordered_map>
#include <vector>

#include "engine/vector/chunk_operator.h"
#include "runtime/compaction_learner.h"

namespace floe::vectorized {

// The rows of small chunks, merged into one chunk of owned columns.
class CompactionBuffer {
 public:
  // `strings`: where copied string bytes go (the worker's heap, which lives as long as the
  // query).
  CompactionBuffer(uint32_t capacity, StringHeap& strings)
      : capacity_(capacity), strings_(strings) {}

  uint32_t size() const { return size_; }
  uint32_t room() const { return capacity_ - size_; }
  // Copies rows [first, first + count) of the chunk's rows (in selection order) to the end.
  // String bytes that are not inline are copied to `strings`: a chunk's may live only as
  // long as its scan batch (the before-images a snapshot sees, runtime/table_scanner.h).
  // count <= room(); every chunk has the first one's column types.
  void append(const DataChunk& chunk, uint32_t first, uint32_t count);
  // The same for rows [first, first + count) of a chunk with extended selection vectors.
  void append(const LogicalChunk& chunk, uint32_t first, uint32_t count);
  // The merged rows as positions 0..size() (no selection); the buffer is empty again.
  DataChunk take();

 private:
  // Column c of the buffer gets count values of `from` at `positions`.
  void append_column(size_t c, const Vector& from, const uint32_t* positions, uint32_t count);
  // Creates the buffer's columns, of the chunk's types, if it has none.
  template <typename Chunk>
  void start(const Chunk& chunk);

  uint32_t capacity_;
  StringHeap& strings_;
  uint32_t size_ = 0;
  std::optional<DataChunk> chunk_;
  std::vector<uint32_t> positions_;
};

// Which chunks a compactor buffers (those of at most `threshold` rows; 0: none) and when the
// buffer goes on (at >= `flush_at` rows).
struct CompactionPolicy {
  uint32_t threshold = 0;
  uint32_t flush_at = 0;
};
// Full and binary compaction's policy; learned compaction's for a learned threshold.
CompactionPolicy full_compaction(uint32_t vector_size);
CompactionPolicy threshold_compaction(uint32_t threshold, uint32_t vector_size);
CompactionPolicy binary_compaction(uint32_t vector_size);

// What the compactors of one pipeline share across workers: each operator's strategy (the
// physical plan's choice) and, under learned compaction, its learner.
class PipelineCompaction {
 public:
  PipelineCompaction(const plan::PhysicalPlan& plan, const plan::Pipeline& pipeline,
                     uint32_t vector_size);
  plan::CompactionStrategy strategy(const plan::LogicalOp& op) const;
  // Null unless the operator's compaction is learned (or smart).
  CompactionLearner* learner(const plan::LogicalOp& op) const;
  // Every operator's learner.
  const std::unordered_map<const plan::LogicalOp*, std::unique_ptr<CompactionLearner>>&
  learners() const {
    return learners_;
  }

 private:
  std::unordered_map<const plan::LogicalOp*, plan::CompactionStrategy> strategies_;
  std::unordered_map<const plan::LogicalOp*, std::unique_ptr<CompactionLearner>> learners_;
};

// A compactor: consumes the chunks of one chunk-reducing operator.
class Compactor : public ChunkOperator {
 public:
  // `learner`: null, or learned compaction's (then `policy` is ignored).
  Compactor(const ChunkColumns& input, uint32_t vector_size, CompactionPolicy policy,
            CompactionLearner* learner, bool ordered, StringHeap& strings);

  bool consume(DataChunk& chunk) override;
  bool consume_logical(LogicalChunk& chunk) override;
  // Pushes the buffered rows on (at the end of a morsel); false once the pipeline is done.
  bool flush();

 private:
  template <typename Chunk>
  bool sample(Chunk& chunk);
  template <typename Chunk>
  bool compact(Chunk& chunk, CompactionPolicy policy);
  bool pass(DataChunk& chunk) { return next_->consume(chunk); }
  bool pass(LogicalChunk& chunk) { return next_->consume_logical(chunk); }

  uint32_t vector_size_;
  CompactionPolicy policy_;
  CompactionLearner* learner_;
  bool ordered_;
  CompactionBuffer buffer_;
};

// Whether `join`'s probe compacts logically (logical and smart compaction).
bool logical_compaction(const PipelineContext& context, const plan::LogicalOp& join);

// The compactor after `op` (a filter or a join) under its strategy; null for none.
std::unique_ptr<Compactor> make_compactor(const PipelineContext& context, const plan::LogicalOp& op,
                                          const ChunkColumns& input, bool ordered);

}  // namespace floe::vectorized
