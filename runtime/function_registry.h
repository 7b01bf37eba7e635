// The one registry of scalar functions (issue 8, "one implementation per function"; DESIGN.md
// "One physical plan, one set of semantics"). Each function is written once, as a typed C++
// function in runtime/functions/ (function_adapter.h turns it into a thunk). The registry maps
// a SQL name to its overloads; the binder resolves calls against it, generated code calls the
// thunk by symbol, and constant folding calls the very same thunk on Values.
//
// Every registry function is strict: a NULL argument gives NULL without calling it. Forms with
// other NULL behaviour (concat, NULLIF, GREATEST, ...) are rewrites in the binder.
#pragma once

#include <functional>
#include <span>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "storage/types.h"
#include "storage/value.h"

namespace floe {

struct WorkerContext;

// One argument or result as it crosses into a thunk. By the type's physical representation:
//  - boolean: one byte, 0 or 1;
//  - smallint, integer, bigint, date, timestamp: int64 (sign-extended);
//  - double precision: double;
//  - numeric(p,s): the scaled __int128, then the scale as int32 at byte 16;
//  - interval: struct Interval; strings: a StringRef.
// A result of a function that may return NULL has byte 31 set when it is NULL.
struct FunctionSlot {
  alignas(16) unsigned char bytes[32];
};
constexpr size_t kFunctionSlotScaleOffset = 16;
constexpr size_t kFunctionSlotNullOffset = 31;

// Computes `result` from `arguments` (one slot per parameter). Returns false after recording
// the error with the worker's QueryContext; never throws.
using FunctionThunk = bool (*)(WorkerContext* worker, const FunctionSlot* arguments,
                               FunctionSlot* result);

// A thunk and whether it may return NULL for non-null arguments (typed_function<F> in
// function_adapter.h makes one from a typed C++ function). A volatile function (random())
// may give a different result on every call, so it is never folded into a constant.
struct FunctionImplementation {
  FunctionThunk thunk;
  bool may_return_null;
  bool is_volatile = false;
};

// What the result-type rule of an overload sees: the argument types (after coercion to the
// parameters) and, for constant arguments, their values (nullptr otherwise).
struct FunctionArgument {
  SqlType type;
  const Value* constant = nullptr;
};
using ResultTypeRule = std::function<SqlType(std::span<const FunctionArgument>)>;

struct FunctionOverload {
  std::string name;  // SQL name, lower case (operators by their symbol, e.g. "&")
  // Parameter types: kText accepts every string type, kDecimal every precision and scale.
  std::vector<TypeId> parameters;
  ResultTypeRule result_type;
  std::string symbol;  // JIT symbol of the thunk
  FunctionThunk thunk;
  bool may_return_null;
  bool is_volatile;

  // Runs the thunk on non-null `arguments` (already of the parameter types) for a result of
  // `result_type`, as generated code would. Throws floe::Error with the function's message.
  Value call(const std::vector<Value>& arguments, const SqlType& result_type) const;
};

class FunctionRegistry {
 public:
  // Adds an overload; its symbol is derived from name and parameters.
  void add(std::string name, std::vector<TypeId> parameters, ResultTypeRule result_type,
           FunctionImplementation implementation);

  // Adds a function that plans use but SQL cannot call (name resolution never sees it), such
  // as the single-row check of unnested scalar subqueries.
  void add_internal(std::string name, std::vector<TypeId> parameters, ResultTypeRule result_type,
                    FunctionImplementation implementation);

  // Makes `alias` another name of every overload of `name` (same thunks).
  void alias(std::string alias, std::string_view name);

  // The SQL-callable overloads of `name` (empty when there are none).
  const std::vector<FunctionOverload>& overloads(std::string_view name) const;
  // The internal function `name` (add_internal); throws when there is none.
  const FunctionOverload& internal(std::string_view name) const;
  // The overload whose thunk has this symbol, or nullptr.
  const FunctionOverload* by_symbol(std::string_view symbol) const;
  // Every overload, for the JIT's symbol table and the code generator's declarations.
  std::vector<const FunctionOverload*> all() const;

 private:
  static FunctionOverload make_overload(std::string name, std::vector<TypeId> parameters,
                                       ResultTypeRule result_type,
                                       FunctionImplementation implementation);

  std::unordered_map<std::string, std::vector<FunctionOverload>> by_name_;
  std::unordered_map<std::string, FunctionOverload> internal_;
};

// The process-wide registry, built on first use from the function families.
const FunctionRegistry& function_registry();

// Result-type rules shared by the families.
ResultTypeRule returns(SqlType type);
ResultTypeRule returns_first_argument_type();

// Slot conversion of Values (the generated-code side is codegen/expression_function.cpp).
void write_function_slot(const Value& value, FunctionSlot& slot);
Value read_function_slot(const FunctionSlot& slot, const SqlType& type);

}  // namespace floe
