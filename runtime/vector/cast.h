// CAST over vectors with the semantics of generated code (codegen/expression_cast.cpp): each
// row goes through the one per-value cast, storage/numeric_casts.h's, or for text the same
// runtime_abi.h conversions generated code calls.
#pragma once

#include <cstdint>
#include <string>

#include "runtime/query_context.h"
#include "runtime/vector/vector.h"

namespace floe::vectorized {

// Whether a cast from `from` to `to` exists (otherwise cast_vector throws NotSupported with
// generated code's message).
bool can_cast(const SqlType& from, const SqlType& to);

// Converts the rows sel[0..n) of `in` (the caller passes only rows whose value is present)
// into `out`, of the target type, at the same positions. Returns false after recording the
// first failing row's error (in row order) with the worker's QueryContext.
bool cast_vector(const Vector& in, Vector& out, const uint32_t* sel, uint32_t n,
                 WorkerContext& worker);

}  // namespace floe::vectorized
