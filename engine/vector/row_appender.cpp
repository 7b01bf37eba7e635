#include "engine/vector/row_appender.h"

#include "engine/vector/materialized_rows.h"
#include "storage/error.h"

namespace floe::vectorized {

RowAppender::RowAppender(const PipelineContext& context, const plan::Materialization& rows,
                         const ChunkColumns& input)
    : layout_(rows.layout),
      input_(input),
      buffer_(*static_cast<RowBuffer*>(context.state[rows.slot])),
      worker_(context.worker.worker_id),
      executor_(context.worker) {
  for (auto [id, index] : input) executor_.bind_column(id, index);
}

void RowAppender::add_column(plan::ColumnId column, size_t field) {
  fields_.push_back({field, nullptr, input_.at(column), field_offsets(layout_, field)});
}

void RowAppender::add_expression(const plan::Expr& expr, size_t field) {
  fields_.push_back({field, &expr, 0, field_offsets(layout_, field)});
}

const std::vector<uint8_t*>& RowAppender::append(const DataChunk& chunk) {
  // Every value first: an expression that fails leaves no half-written rows behind.
  values_.clear();
  for (const Field& field : fields_) {
    values_.push_back(field.expr ? executor_.evaluate(*field.expr, chunk)
                                 : chunk.column(field.column).view());
  }
  rows_.resize(chunk.count());
  for (auto& row : rows_) row = buffer_.append(worker_);
  for (size_t f = 0; f < fields_.size(); ++f) {
    if (!scatter_column(values_[f], chunk.selection(), chunk.count(), rows_.data(),
                        fields_[f].offsets))
      throw Error("internal error: NULL value in a NOT NULL column");
  }
  return rows_;
}

const Vector& RowAppender::values(size_t field) const {
  for (size_t f = 0; f < fields_.size(); ++f)
    if (fields_[f].field == field) return values_[f];
  throw Error("internal error: no such materialized field");
}

}  // namespace floe::vectorized
