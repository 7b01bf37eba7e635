// The vectorized sort (materialized_rows.h).
#include "engine/plan/row_keys.h"
#include "engine/vector/materialized_rows.h"
#include "engine/vector/row_appender.h"

namespace floe::vectorized {
namespace {

class SortSink : public ChunkConsumer {
 public:
  SortSink(const PipelineContext& context, const plan::SortOp& sort, const ChunkColumns& input)
      : appender_(context, context.physical.materialization(sort), input) {
    const plan::Materialization& rows = context.physical.materialization(sort);
    for (const auto& column : rows.columns) appender_.add_column(column.id, column.field);
    size_t field = rows.columns.size();
    for (const plan::Expr* key : rows.computed_keys) appender_.add_expression(*key, field++);
  }

  bool consume(DataChunk& chunk) override {
    appender_.append(chunk);
    return true;
  }

 private:
  RowAppender appender_;
};

}  // namespace

std::unique_ptr<ChunkConsumer> make_sort_sink(const PipelineContext& context,
                                              const plan::SortOp& sort, const ChunkColumns& input) {
  return std::make_unique<SortSink>(context, sort, input);
}

void sort_rows(const plan::PhysicalDescription& physical, const plan::PipelineDescription& pipeline,
               RowBuffer& rows, QueryContext& query) {
  const auto& sort = static_cast<const plan::SortOp&>(*pipeline.sink_op);
  const plan::Materialization& materialization = physical.materialization(sort);
  RowOrder order = plan::row_order(materialization.layout, plan::sort_keys(sort, materialization));
  rows.sort(order.comparator(), query.cancel_flag());
  rows.apply_limit(pipeline.offset, pipeline.limit);
}

}  // namespace floe::vectorized
