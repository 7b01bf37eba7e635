// The vectorized aggregation source (aggregation.h; codegen/aggregation_translator.cpp's
// AggregationSource): the merged groups of a morsel, a chunk at a time, their keys gathered
// from the group rows and their aggregates finalized by the kernels.
#include <algorithm>
#include <vector>

#include "engine/vector/aggregation.h"
#include "engine/vector/group_rows.h"
#include "runtime/vector/row_gather.h"
#include "storage/error.h"

namespace floe::vectorized {
namespace {

class AggregationSource : public ChunkSource {
 public:
  AggregationSource(const PipelineContext& context, const plan::AggregateOp& aggregate)
      : context_(context),
        table_(*static_cast<AggregationHashTable*>(
            context.state[context.physical.materialization(aggregate).slot])),
        groups_(*context.physical.materialization(aggregate).aggregate) {
    for (const auto& group : aggregate.groups) {
      columns_[group.id] = types_.size();
      types_.push_back(context.plan.registry[group.id].type);
    }
    for (const auto& call : aggregate.aggregates) {
      columns_[call.id] = types_.size();
      types_.push_back(context.plan.registry[call.id].type);
    }
  }

  bool produce(uint64_t begin, uint64_t end, ChunkConsumer& consumer) override {
    const size_t keys = groups_.key_count();
    for (uint64_t first = begin; first < end; first += context_.vector_size) {
      const auto n = static_cast<uint32_t>(std::min<uint64_t>(context_.vector_size, end - first));
      rows_.resize(n);
      for (uint32_t i = 0; i < n; ++i) rows_[i] = table_.row(first + i);
      DataChunk chunk(n);
      for (size_t k = 0; k < keys; ++k)
        gather_column(rows_.data(), n, groups_.key_field(k), chunk.add_column(types_[k]));
      for (size_t a = 0; a < groups_.kernels().size(); ++a) {
        if (!finalize_states(groups_.kernels()[a], context_.worker, rows_.data(), n,
                             chunk.add_column(types_[keys + a])))
          throw Error(context_.worker.query->error_message());
      }
      chunk.set_count(n);
      if (!consumer.consume(chunk)) return false;
    }
    return true;
  }

 private:
  const PipelineContext& context_;
  AggregationHashTable& table_;
  GroupRows groups_;
  std::vector<SqlType> types_;  // of the chunk's columns: the keys, then the aggregates
  std::vector<const uint8_t*> rows_;
};

}  // namespace

std::unique_ptr<ChunkSource> make_aggregation_source(const PipelineContext& context,
                                                     const plan::AggregateOp& aggregate) {
  return std::make_unique<AggregationSource>(context, aggregate);
}

}  // namespace floe::vectorized
