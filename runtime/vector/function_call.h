// Registry functions over vectors (runtime/function_registry.h): the very thunk generated
// code calls, once per row, with arguments and result in FunctionSlots.
#pragma once

#include <cstdint>
#include <span>

#include "runtime/function_registry.h"
#include "runtime/query_context.h"
#include "runtime/vector/vector.h"

namespace floe::vectorized {

// The value at `position` in the slot layout of function_registry.h (the generated-code side
// is codegen/expression_function.cpp's store_argument); the NULL byte is left alone.
void write_slot(const Vector& vector, uint32_t position, FunctionSlot& slot);
// The slot's value (not its NULL byte) into position `position` of the owned `vector`.
void read_slot(const FunctionSlot& slot, Vector& vector, uint32_t position);

// Calls `function` for the rows sel[0..n) (or 0..n), which the caller has narrowed to those
// whose arguments are all present (functions are strict, function_registry.h). Writes the
// results to `result` at the same positions; a function that may return NULL clears their
// validity bits. Returns false when the thunk failed: its error is recorded in the worker's
// QueryContext.
bool call_function(const FunctionOverload& function, WorkerContext& worker,
                   std::span<const Vector* const> arguments, Vector& result, const uint32_t* sel,
                   uint32_t n);

}  // namespace floe::vectorized
