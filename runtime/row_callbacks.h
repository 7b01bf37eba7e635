// Callbacks of the runtime's tables (aggregation merge, sort, window evaluation) that either
// engine can supply: a function plus a context pointer that is passed back as the last
// argument. Generated code passes its function and no context (the parameter is declared and
// ignored, so the call costs no more than a bare function pointer); an interpreter passes a
// shared function and its per-query state (the row layout, the key columns) as the context.
#pragma once

#include <cstddef>
#include <cstdint>

namespace floe {

struct WorkerContext;

template <typename Result, typename... Args>
class RowCallback {
 public:
  using Fn = Result (*)(Args..., const void* context);

  RowCallback() = default;
  RowCallback(std::nullptr_t) {}  // NOLINT: `= nullptr` reads as "no callback"
  RowCallback(Fn fn, const void* context = nullptr) : fn_(fn), context_(context) {}  // NOLINT

  Result operator()(Args... args) const { return fn_(args..., context_); }
  explicit operator bool() const { return fn_ != nullptr; }

 private:
  Fn fn_ = nullptr;
  const void* context_ = nullptr;
};

// Sign of a against b in some order (0: equal in it).
using RowComparator = RowCallback<int32_t, const uint8_t*, const uint8_t*>;
// Whether the keys of two rows are equal.
using RowEquality = RowCallback<bool, const uint8_t*, const uint8_t*>;
// Aggregate states: adds a row to a state, folds `from` into `into`, writes the result into
// a row. Each returns false after recording an error (an overflowing sum) through the worker.
using StateUpdate = RowCallback<bool, WorkerContext*, uint8_t*, const uint8_t*>;
using StateMerge = RowCallback<bool, WorkerContext*, uint8_t*, const uint8_t*>;
using StateFinalize = RowCallback<bool, WorkerContext*, const uint8_t*, uint8_t*>;

}  // namespace floe
