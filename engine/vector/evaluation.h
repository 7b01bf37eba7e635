// One evaluation of an expression tree over one chunk (expression_executor.h): the rows
// being evaluated are passed down as selection vectors; every result vector has the chunk's
// positions.
#pragma once

#include <cstdint>
#include <memory>
#include <unordered_map>
#include <vector>

#include "engine/plan/expression.h"
#include "runtime/query_context.h"
#include "runtime/vector/vector.h"

namespace floe::vectorized {

// Rows of a chunk: positions sel[0..n), or 0..n when sel is null.
struct Rows {
  const uint32_t* sel = nullptr;
  uint32_t n = 0;
};

// Owned positions that a Rows can point into.
struct Selection {
  std::vector<uint32_t> positions;
  uint32_t count = 0;
  Rows rows() const { return {positions.data(), count}; }
};

class Evaluation {
 public:
  Evaluation(const DataChunk& chunk, WorkerContext& worker,
             const std::unordered_map<plan::ColumnId, size_t>& columns)
      : chunk_(chunk), worker_(worker), columns_(columns), extent_(chunk.extent()) {}

  Vector evaluate(const plan::Expr& expr, Rows rows);
  // A new vector of `type` over the chunk's positions.
  Vector make_vector(const SqlType& type) const { return Vector(type, extent_); }
  // `in` as `to` (generated code's cast semantics) on `rows`.
  Vector cast(Vector in, const SqlType& to, Rows rows);
  // The rows whose value in `vector` (validity at offset 0) is present.
  Selection present(const Vector& vector, Rows rows) const;
  // Throws the error a runtime function or primitive recorded with the worker.
  [[noreturn]] void throw_recorded() const;

  // arithmetic.cpp
  Vector arithmetic(const plan::Expr& expr, Rows rows);
  Vector negate(const plan::Expr& expr, Rows rows);

 private:
  Vector constant(const plan::Expr& expr, Rows rows);
  Vector compare(const plan::Expr& expr, Rows rows);
  Vector junction(const plan::Expr& expr, Rows rows);
  Vector case_when(const plan::Expr& expr, Rows rows);
  Vector coalesce(const plan::Expr& expr, Rows rows);
  Vector like(const plan::Expr& expr, Rows rows);
  Vector in_list(const plan::Expr& expr, Rows rows);
  Vector extremum(const plan::Expr& expr, Rows rows);
  Vector extract(const plan::Expr& expr, Rows rows);
  Vector function(const plan::Expr& expr, Rows rows);

  const DataChunk& chunk_;
  WorkerContext& worker_;
  const std::unordered_map<plan::ColumnId, size_t>& columns_;
  uint32_t extent_;
};

// The result's validity words: the AND of each operand's (null when all are present).
void intersect_into(Vector& result, const Vector& operand);

// Copies the values and validity of `from` at `rows` into `to` (same type, owned).
void copy_values(const Vector& from, Vector& to, Rows rows);

}  // namespace floe::vectorized
