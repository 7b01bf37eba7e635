// One worker's vectorized pipeline (chunk_operator.h): the source, the streaming operators
// and the sink of a plan::Pipeline, wired in push order, run morsel by morsel.
#pragma once

#include <memory>
#include <vector>

#include "engine/vector/chunk_operator.h"
#include "engine/vector/compaction.h"

namespace floe::vectorized {

class VectorPipeline {
 public:
  // `context` is kept.
  VectorPipeline(const plan::Pipeline& pipeline, const PipelineContext& context);

  // Pushes the rows of morsel [begin, end) through; false once the pipeline is done (its
  // LIMIT let through all it will). Throws floe::Error like the query would fail.
  // The compactors' buffers go on at the end of the morsel.
  bool run(uint64_t begin, uint64_t end);

 private:
  PipelineContext context_;
  std::unique_ptr<ChunkSource> source_;
  std::vector<std::unique_ptr<ChunkOperator>> operators_;  // bottom up
  std::unique_ptr<ChunkConsumer> sink_;
  ChunkConsumer* first_ = nullptr;  // what the source pushes into
  std::vector<Compactor*> compactors_;  // bottom up
};

}  // namespace floe::vectorized
