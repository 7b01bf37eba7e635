// The vectorized source of a right/full outer join's unmatched build rows (join_operators.h),
// as codegen/hash_join_translator.cpp's JoinUnmatchedSource: after the probe pipeline, the
// rows of the morsel (a chaining table's directory slots, each with its whole chain, or a
// CHT/CAT's rows) whose matched byte is 0 (1 for a right semi join) pass on in chunks of at
// most the vector size, the probe columns NULL.
#include <vector>

#include "engine/vector/join_operators.h"
#include "engine/vector/join_table_access.h"
#include "runtime/vector/row_gather.h"

namespace floe::vectorized {
namespace {

class JoinUnmatchedSource : public ChunkSource {
 public:
  JoinUnmatchedSource(const PipelineContext& context, const plan::JoinOp& join)
      : context_(context),
        rows_(context.physical.materialization(join)),
        table_(join_table_of(context, rows_)),
        wanted_(join.type == plan::JoinType::kRightSemi ? 1 : 0),
        flag_(rows_.layout.offset(rows_.layout.field_count() - 1)) {
    if (plan::join_outputs_probe(join.type)) {
      for (auto id : plan::output_columns(*join.children[0])) {
        if (!context.physical.is_used(id)) continue;
        columns_[id] = probe_types_.size();
        probe_types_.push_back(context.plan.registry[id].type);
      }
    }
    for (const auto& column : rows_.columns) {
      size_t index = columns_.size();
      columns_[column.id] = index;
    }
  }

  bool produce(uint64_t begin, uint64_t end, ChunkConsumer& consumer) override {
    payloads_.clear();
    auto add = [&](uint8_t* payload) {
      if (payload[flag_] != wanted_) return true;
      payloads_.push_back(payload);
      return payloads_.size() < context_.vector_size || flush(consumer);
    };
    for (uint64_t unit = begin; unit < end; ++unit) {
      if (table_.chaining) {
        for (JoinEntry* entry = table_.chaining->slot_chain(unit); entry; entry = entry->next)
          if (!add(entry->payload())) return false;
      } else if (!add(table_.concise->row(static_cast<uint32_t>(unit)))) {
        return false;
      }
    }
    return payloads_.empty() || flush(consumer);
  }

 private:
  bool flush(ChunkConsumer& consumer) {
    const uint32_t n = static_cast<uint32_t>(payloads_.size());
    DataChunk chunk(context_.vector_size);
    for (const SqlType& type : probe_types_) {
      Vector column(type, n);
      for (uint32_t i = 0; i < n; ++i) column.set_valid(i, false);
      chunk.add_column(std::move(column));
    }
    for (const auto& column : rows_.columns) {
      Vector values(rows_.layout.field(column.field).type, n);
      gather_column(payloads_.data(), n, field_offsets(rows_.layout, column.field), values);
      chunk.add_column(std::move(values));
    }
    chunk.set_count(n);
    payloads_.clear();
    return consumer.consume(chunk);
  }

  const PipelineContext& context_;
  const plan::Materialization& rows_;
  JoinTableRef table_;
  uint8_t wanted_;
  uint32_t flag_;  // the matched byte's offset
  std::vector<SqlType> probe_types_;
  std::vector<uint8_t*> payloads_;
};

}  // namespace

std::unique_ptr<ChunkSource> make_join_unmatched_source(const PipelineContext& context,
                                                        const plan::JoinOp& join) {
  return std::make_unique<JoinUnmatchedSource>(context, join);
}

}  // namespace floe::vectorized
