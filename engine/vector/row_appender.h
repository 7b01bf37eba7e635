// Appends a chunk's rows to a RowBuffer (runtime/row_buffer.h) in a materialized row layout
// (engine/plan/row_layout.h): each field takes a chunk column or an expression's value,
// evaluated over the chunk by the expression executor. The sort and window sinks use it as
// generated code's sinks store their fields (codegen/sort_translator.cpp,
// codegen/window_translator.cpp).
#pragma once

#include <vector>

#include "engine/vector/chunk_operator.h"
#include "engine/vector/expression_executor.h"
#include "runtime/row_buffer.h"
#include "runtime/vector/row_scatter.h"

namespace floe::vectorized {

class RowAppender {
 public:
  RowAppender(const PipelineContext& context, const plan::Materialization& rows,
              const ChunkColumns& input);

  // Field `field` takes plan column `column` of the input / the value of `expr`.
  void add_column(plan::ColumnId column, size_t field);
  void add_expression(const plan::Expr& expr, size_t field);

  // Appends a row per chunk row, its fields written; returns the rows, in chunk order (valid
  // until the next call).
  const std::vector<uint8_t*>& append(const DataChunk& chunk);
  // After append: the values written into `field` (at the chunk's positions).
  const Vector& values(size_t field) const;

 private:
  struct Field {
    size_t field;
    const plan::Expr* expr;  // null: the chunk's column `column`
    size_t column;
    RowFieldOffsets offsets;
  };

  const plan::RowLayout& layout_;
  const ChunkColumns& input_;
  RowBuffer& buffer_;
  uint32_t worker_;
  ExpressionExecutor executor_;
  std::vector<Field> fields_;
  std::vector<Vector> values_;  // per entry of fields_, of the last chunk
  std::vector<uint8_t*> rows_;
};

}  // namespace floe::vectorized
