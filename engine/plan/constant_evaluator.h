// Plan-time evaluation of constant expressions, with PostgreSQL value semantics (used only
// for constant folding; queries themselves always run as generated code).
#pragma once

#include <optional>

#include "engine/plan/expression.h"

namespace floe::plan {

// The value of `expr` when all its children are constants and its kind is one the evaluator
// knows (and not a volatile function such as random()); nullopt otherwise. Throws floe::Error when evaluation fails (overflow, division by
// zero, bad cast) — the caller then leaves the expression to run time.
std::optional<Value> evaluate_constant(const Expr& expr);

// Evaluates a whole expression tree without columns (INSERT ... VALUES), volatile functions
// once per call. Throws floe::Error
// on failure and floe::NotSupported for parts only generated code can evaluate.
Value evaluate(const Expr& expr);

// Three-way comparison of two non-null values of the same type (NaN sorts last, as in
// PostgreSQL).
int compare_values(const Value& a, const Value& b);

}  // namespace floe::plan
