// The vectorized source over materialized rows (materialized_rows.h).
#include <algorithm>
#include <vector>

#include "engine/vector/materialized_rows.h"
#include "runtime/vector/row_gather.h"

namespace floe::vectorized {
namespace {

class RowsSource : public ChunkSource {
 public:
  RowsSource(const PipelineContext& context, const plan::LogicalOp& op)
      : rows_(*static_cast<RowBuffer*>(context.state[context.description.source_slot])),
        vector_size_(context.vector_size) {
    const plan::Materialization& materialization = context.physical.materialization(op);
    const plan::RowLayout& layout = materialization.layout;
    for (const auto& column : materialization.columns) {
      columns_[column.id] = fields_.size();
      fields_.push_back({layout.field(column.field).type, field_offsets(layout, column.field)});
    }
  }

  bool produce(uint64_t begin, uint64_t end, ChunkConsumer& consumer) override {
    for (uint64_t first = begin; first < end; first += vector_size_) {
      const auto n = static_cast<uint32_t>(std::min<uint64_t>(vector_size_, end - first));
      const uint8_t* const* rows = rows_.order().data() + first;
      DataChunk chunk(n);
      for (const Field& field : fields_) {
        Vector& column = chunk.add_column(field.type);
        gather_column(rows, n, field.offsets, column);
      }
      chunk.set_count(n);
      if (!consumer.consume(chunk)) return false;
    }
    return true;
  }

 private:
  struct Field {
    SqlType type;
    RowFieldOffsets offsets;
  };
  RowBuffer& rows_;
  uint32_t vector_size_;
  std::vector<Field> fields_;  // per chunk column
};

}  // namespace

std::unique_ptr<ChunkSource> make_rows_source(const PipelineContext& context,
                                              const plan::LogicalOp& op) {
  return std::make_unique<RowsSource>(context, op);
}

}  // namespace floe::vectorized
