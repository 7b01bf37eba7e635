// The vectorized engine's pipeline parts (DESIGN.md "Vectorized execution"; X100 thesis
// §4.2-4.3): a source turns one morsel into DataChunks, each streaming operator transforms a
// chunk and pushes it on, and the sink consumes it. They run one physical pipeline
// (plan::Pipeline with its plan::PipelineDescription) over the same state array as generated
// code (engine/exec/query_state.h) and do exactly what the compiled translators do
// (codegen/*_translator.cpp), chunk by chunk. Each worker has its own instances.
//
// A chunk keeps its rows at their positions (runtime/vector/vector.h): a filter only sets a
// selection vector, a map only adds columns; operators that make new rows (a table function)
// emit new chunks.
#pragma once

#include <cstdint>
#include <memory>
#include <unordered_map>

#include "engine/plan/physical_description.h"
#include "engine/plan/physical_plan.h"
#include "engine/vector/logical_chunk.h"
#include "runtime/query_context.h"
#include "runtime/vector/vector.h"

namespace floe::vectorized {

// Where each plan column of a chunk is: its column index.
using ChunkColumns = std::unordered_map<plan::ColumnId, size_t>;

class PipelineCompaction;  // compaction.h

// EXPLAIN ANALYZE: the chunks a streaming operator received and passed on (after its
// compaction), and their rows.
struct ChunkCounts {
  uint64_t chunks_in = 0;
  uint64_t rows_in = 0;
  uint64_t chunks_out = 0;
  uint64_t rows_out = 0;
};

// What one worker's operators of one pipeline share.
struct PipelineContext {
  const plan::LogicalPlan& plan;
  const plan::PhysicalDescription& physical;
  const plan::PipelineDescription& description;
  WorkerContext& worker;
  void** state;
  uint32_t vector_size;
  // EXPLAIN ANALYZE: the worker's row count per counted operator (null: not counted).
  std::unordered_map<const plan::LogicalOp*, uint64_t>* row_counts = nullptr;
  // With row_counts: the worker's chunk counts per counted operator.
  std::unordered_map<const plan::LogicalOp*, ChunkCounts>* chunk_counts = nullptr;
  // The compaction of the pipeline's filters and joins (null: none).
  const PipelineCompaction* compaction = nullptr;
};

class ChunkConsumer {
 public:
  virtual ~ChunkConsumer() = default;
  // Takes the chunk's rows (it may change the chunk's selection and add columns). Returns
  // false once the pipeline is done: a LIMIT has let through all it will.
  virtual bool consume(DataChunk& chunk) = 0;
  // The same for a chunk with extended selection vectors (logical compaction's join output,
  // logical_chunk.h). Consumers that cannot read one take it flattened.
  virtual bool consume_logical(LogicalChunk& chunk) {
    DataChunk flat = chunk.flatten();
    return consume(flat);
  }
};

class ChunkSource {
 public:
  virtual ~ChunkSource() = default;
  // Pushes the rows of morsel [begin, end) into `consumer` in chunks of at most the vector
  // size; false when the consumer said the pipeline is done.
  virtual bool produce(uint64_t begin, uint64_t end, ChunkConsumer& consumer) = 0;
  // Where the source's columns are in its chunks.
  const ChunkColumns& columns() const { return columns_; }

 protected:
  ChunkColumns columns_;
};

// A streaming operator: consumes chunks of its input's columns, pushes chunks of its own.
class ChunkOperator : public ChunkConsumer {
 public:
  void set_next(ChunkConsumer& next) { next_ = &next; }
  const ChunkColumns& columns() const { return columns_; }

 protected:
  ChunkConsumer* next_ = nullptr;
  ChunkColumns columns_;  // of the chunks pushed on
};

}  // namespace floe::vectorized
