// Set-returning functions in FROM (issue 8): string_to_table, regexp_split_to_table,
// generate_series. Each is written once, here in runtime/, and is engine-neutral: a call (the
// arguments of one input row) opens a cursor that yields the call's rows one value at a time.
// Generated code calls it through floe_rt_table_function_open / _next (runtime_abi.h);
// another engine can call open and next directly. generate_series with constant arguments
// does not call it: as a leaf it runs morsel-parallel over ranges of its values
// (runtime/series.h); with arguments from other FROM items it is one call per input row.
#pragma once

#include <cstddef>
#include <new>
#include <span>
#include <string>
#include <string_view>
#include <type_traits>
#include <unordered_map>
#include <vector>

#include "runtime/function_registry.h"
#include "storage/string_heap.h"

namespace floe {

// The values of one call. A cursor lives in caller-provided storage of
// kTableFunctionCursorSize bytes and is never destroyed: it holds only views of its
// arguments (which the caller keeps alive during the call) and plain values.
class TableFunctionCursor {
 public:
  // Writes the next value into `value` (FunctionSlot layout, byte kFunctionSlotNullOffset
  // set for NULL) and returns true; false when the call has no more rows. Strings are stored
  // in `heap` or point into the arguments. Throws floe::Error.
  virtual bool next(StringHeap& heap, FunctionSlot& value) = 0;

 protected:
  ~TableFunctionCursor() = default;
};

constexpr size_t kTableFunctionCursorSize = 128;
constexpr size_t kTableFunctionCursorAlignment = 16;

struct TableFunction {
  std::string name;  // SQL name, lower case
  // Parameter types (kText: every string type). Arguments may be NULL (byte
  // kFunctionSlotNullOffset of their slot set): each function gives NULL its own meaning.
  std::vector<TypeId> parameters;
  SqlType result;
  // Starts a call: constructs its cursor in `storage`. Throws floe::Error.
  TableFunctionCursor* (*open)(void* storage, std::span<const FunctionSlot> arguments);
};

class TableFunctionRegistry {
 public:
  void add(TableFunction function);
  // The overloads of `name` (empty when there are none).
  const std::vector<TableFunction>& overloads(std::string_view name) const;

 private:
  std::unordered_map<std::string, std::vector<TableFunction>> by_name_;
};

// The process-wide registry, built on first use.
const TableFunctionRegistry& table_functions();

// Whether the argument slot holds NULL.
inline bool is_null_argument(const FunctionSlot& slot) {
  return slot.bytes[kFunctionSlotNullOffset] != 0;
}

// Whether some argument is NULL (a strict function's call then has no rows).
inline bool any_null_argument(std::span<const FunctionSlot> arguments) {
  for (const FunctionSlot& argument : arguments)
    if (is_null_argument(argument)) return true;
  return false;
}

// Constructs a cursor of type C in `storage` from `arguments` (C's constructor takes them).
template <typename C>
TableFunctionCursor* open_cursor(void* storage, std::span<const FunctionSlot> arguments) {
  static_assert(sizeof(C) <= kTableFunctionCursorSize &&
                alignof(C) <= kTableFunctionCursorAlignment);
  static_assert(std::is_trivially_destructible_v<C>);
  return new (storage) C(arguments);
}

}  // namespace floe
