// The vectorized engine's expression executor (DESIGN.md "Vectorized execution"): evaluates a
// bound plan::Expr tree over a DataChunk, a vector at a time, with the primitives of
// runtime/vector/ and the semantics of generated code (codegen/expression_*.cpp): the same
// runtime functions, registry thunks and storage operations, the same results and errors.
//
// Row-at-a-time semantics are kept where SQL needs them: the THEN branch of CASE runs only on
// the rows whose WHEN is true, COALESCE's later arguments only on rows still NULL, and AND/OR
// stop at the rows they have decided, so that an error (1/0) is raised only when generated
// code would raise it. Errors are thrown as floe::Error with the message of the first
// failing row of the first failing operation (a runtime function's recorded message
// included).
#pragma once

#include <cstdint>
#include <unordered_map>
#include <vector>

#include "engine/plan/expression.h"
#include "runtime/query_context.h"
#include "runtime/vector/vector.h"

namespace floe::vectorized {

class ExpressionExecutor {
 public:
  // Strings computed by expressions go to the worker's heap; runtime functions and registry
  // thunks record their errors with the worker's QueryContext.
  explicit ExpressionExecutor(WorkerContext& worker) : worker_(worker) {}

  // Column references to `column` read the chunk's column `chunk_column`.
  void bind_column(plan::ColumnId column, size_t chunk_column) { columns_[column] = chunk_column; }

  // The value of `expr` for each of the chunk's rows, at the rows' positions.
  Vector evaluate(const plan::Expr& expr, const DataChunk& chunk);

  // The chunk's rows for which the boolean `expr` is true (the filter form), as a selection
  // vector of positions in `selection`; returns their count.
  uint32_t select(const plan::Expr& expr, const DataChunk& chunk, std::vector<uint32_t>& selection);

 private:
  WorkerContext& worker_;
  std::unordered_map<plan::ColumnId, size_t> columns_;
};

// The value of an expression without column references (constant folding, INSERT ...
// VALUES, window frame offsets), computed by the executor on a one-row chunk. Throws
// floe::Error like the query would, and floe::NotSupported for expressions only a query can
// evaluate (subqueries, columns).
Value evaluate_scalar(const plan::Expr& expr);
// evaluate_scalar for a value the user wrote (INSERT ... VALUES, EXECUTE's arguments): an
// error without a position of its own points at the expression.
Value evaluate_scalar_at(const plan::Expr& expr);

}  // namespace floe::vectorized
