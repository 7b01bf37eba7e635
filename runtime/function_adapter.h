// Turns a typed C++ function into a FunctionThunk (function_registry.h), so that each scalar
// function's semantics is written once, with ordinary C++ types:
//   bool, int64_t (every integer type, date, timestamp), double, Decimal, Interval,
//   std::string_view (arguments) and StringRef (results).
// A function that builds strings takes a StringHeap& first (the worker's heap, which lives as
// long as the query's result); one that needs the query's state (the sequence session) takes
// a QueryContext& first. A function that returns std::optional<T> may return NULL.
// Errors are thrown as floe::Error; the thunk records them.
#pragma once

#include <cstring>
#include <exception>
#include <optional>
#include <string_view>
#include <tuple>
#include <type_traits>
#include <utility>

#include "runtime/function_registry.h"
#include "runtime/query_context.h"
#include "storage/decimal.h"
#include "storage/interval.h"
#include "storage/string_heap.h"
#include "storage/string_ref.h"

namespace floe {

// A numeric value: the scaled integer and its scale.
struct Decimal {
  int128_t value = 0;
  int32_t scale = 0;
};

namespace function_adapter {

template <typename T>
T read(const FunctionSlot& slot) {
  if constexpr (std::is_same_v<T, std::string_view>) {
    // The slot holds a StringRef: an inline string's bytes are read where they are in the
    // slot, which outlives the call.
    uint32_t length;
    std::memcpy(&length, slot.bytes, sizeof length);
    if (length <= StringRef::kInlineLength)
      return {reinterpret_cast<const char*>(slot.bytes) + 4, length};
    const char* pointer;
    std::memcpy(&pointer, slot.bytes + 8, sizeof pointer);
    return {pointer, length};
  } else if constexpr (std::is_same_v<T, bool>) {
    return slot.bytes[0] != 0;
  } else if constexpr (std::is_same_v<T, Decimal>) {
    Decimal d;
    std::memcpy(&d.value, slot.bytes, sizeof d.value);
    std::memcpy(&d.scale, slot.bytes + kFunctionSlotScaleOffset, sizeof d.scale);
    return d;
  } else {
    static_assert(std::is_same_v<T, int64_t> || std::is_same_v<T, double> ||
                  std::is_same_v<T, Interval>);
    T value;
    std::memcpy(&value, slot.bytes, sizeof value);
    return value;
  }
}

template <typename T>
void write(FunctionSlot& slot, const T& value) {
  if constexpr (std::is_same_v<T, bool>) {
    slot.bytes[0] = value ? 1 : 0;
  } else if constexpr (std::is_same_v<T, Decimal>) {
    std::memcpy(slot.bytes, &value.value, sizeof value.value);
    std::memcpy(slot.bytes + kFunctionSlotScaleOffset, &value.scale, sizeof value.scale);
  } else {
    static_assert(std::is_same_v<T, int64_t> || std::is_same_v<T, double> ||
                  std::is_same_v<T, Interval> || std::is_same_v<T, StringRef>);
    std::memcpy(slot.bytes, &value, sizeof value);
  }
}

template <typename T>
void write(FunctionSlot& slot, const std::optional<T>& value) {
  slot.bytes[kFunctionSlotNullOffset] = value ? 0 : 1;
  if (value) write(slot, *value);
}

template <typename R, typename... A, size_t... I>
void invoke(R (*function)(A...), [[maybe_unused]] const FunctionSlot* arguments,
            FunctionSlot* result, std::index_sequence<I...>) {
  write(*result, function(read<std::decay_t<A>>(arguments[I])...));
}

template <typename C, typename R, typename... A, size_t... I>
void invoke(R (*function)(C&, A...), C& context, [[maybe_unused]] const FunctionSlot* arguments,
            FunctionSlot* result, std::index_sequence<I...>) {
  write(*result, function(context, read<std::decay_t<A>>(arguments[I])...));
}

template <typename R, typename... A>
void call(R (*function)(A...), WorkerContext*, const FunctionSlot* arguments,
          FunctionSlot* result) {
  invoke(function, arguments, result, std::index_sequence_for<A...>());
}

template <typename R, typename... A>
void call(R (*function)(StringHeap&, A...), WorkerContext* worker, const FunctionSlot* arguments,
          FunctionSlot* result) {
  invoke(function, *worker->strings, arguments, result, std::index_sequence_for<A...>());
}

template <typename R, typename... A>
void call(R (*function)(QueryContext&, A...), WorkerContext* worker, const FunctionSlot* arguments,
          FunctionSlot* result) {
  invoke(function, *worker->query, arguments, result, std::index_sequence_for<A...>());
}

template <typename T>
constexpr bool is_optional = false;
template <typename T>
constexpr bool is_optional<std::optional<T>> = true;

template <typename R, typename... A>
constexpr bool returns_optional(R (*)(A...)) {
  return is_optional<R>;
}

}  // namespace function_adapter

// The thunk of the typed function `F` (nothing throws out of it into generated code).
template <auto F>
bool function_thunk(WorkerContext* worker, const FunctionSlot* arguments, FunctionSlot* result) {
  try {
    function_adapter::call(F, worker, arguments, result);
    return true;
  } catch (const std::exception& e) {
    worker->query->fail(e.what());
    return false;
  }
}

// The registry's implementation of the typed function `F`.
template <auto F>
constexpr FunctionImplementation typed_function = {&function_thunk<F>,
                                                   function_adapter::returns_optional(F)};

// The same for a volatile function (function_registry.h).
template <auto F>
constexpr FunctionImplementation volatile_function = {
    &function_thunk<F>, function_adapter::returns_optional(F), true};

}  // namespace floe
