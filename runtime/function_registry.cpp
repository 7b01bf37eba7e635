#include "runtime/function_registry.h"

#include <cctype>
#include <cstring>

#include "runtime/functions/function_families.h"
#include "runtime/query_context.h"
#include "storage/error.h"

namespace floe {

namespace {

bool slot_holds_int64(const SqlType& type) {
  return type.is_integer() || type.is_temporal();
}

// `text` in a C identifier: other characters than letters and digits as xHH.
void append_identifier(std::string& symbol, std::string_view text) {
  static const char kHex[] = "0123456789abcdef";
  for (char c : text) {
    auto byte = static_cast<unsigned char>(c);
    if (std::isalnum(byte)) {
      symbol += c;
    } else {
      symbol += 'x';
      symbol += kHex[byte >> 4];
      symbol += kHex[byte & 15];
    }
  }
}

// E.g. floe_fn_round_numeric_integer, floe_fn_x26_integer_integer for integer & integer.
std::string symbol_for(const std::string& name, const std::vector<TypeId>& parameters) {
  std::string symbol = "floe_fn_";
  append_identifier(symbol, name);
  for (TypeId id : parameters) {
    symbol += '_';
    SqlType type{id};
    append_identifier(symbol, id == TypeId::kDecimal ? "numeric" : type.to_string());
  }
  return symbol;
}

}  // namespace

void write_function_slot(const Value& value, FunctionSlot& slot) {
  std::memset(slot.bytes, 0, sizeof slot.bytes);
  const SqlType& type = value.type();
  if (slot_holds_int64(type)) {
    int64_t integer = value.as_int64();
    std::memcpy(slot.bytes, &integer, sizeof integer);
  } else if (type.id == TypeId::kDecimal) {
    int128_t scaled = value.as_int128();
    int32_t scale = type.scale;
    std::memcpy(slot.bytes, &scaled, sizeof scaled);
    std::memcpy(slot.bytes + kFunctionSlotScaleOffset, &scale, sizeof scale);
  } else {
    value.write_physical(slot.bytes);
  }
}

Value read_function_slot(const FunctionSlot& slot, const SqlType& type) {
  if (type.is_integer()) {
    int64_t integer;
    std::memcpy(&integer, slot.bytes, sizeof integer);
    return make_integer(integer, type);
  }
  if (type.is_temporal()) {
    int64_t integer;
    std::memcpy(&integer, slot.bytes, sizeof integer);
    return type.id == TypeId::kDate ? Value::date(static_cast<int32_t>(integer))
                                    : Value::timestamp(integer);
  }
  if (type.id == TypeId::kDecimal) {
    int128_t scaled;
    std::memcpy(&scaled, slot.bytes, sizeof scaled);
    return Value::decimal(scaled, type.precision, type.scale);
  }
  return Value::read_physical(slot.bytes, type);
}

Value FunctionOverload::call(const std::vector<Value>& arguments,
                             const SqlType& result_type) const {
  std::vector<FunctionSlot> slots(arguments.size());
  for (size_t i = 0; i < arguments.size(); ++i) write_function_slot(arguments[i], slots[i]);
  QueryContext query(1);
  FunctionSlot result;
  if (!thunk(&query.worker(0), slots.data(), &result)) throw Error(query.error_message());
  if (may_return_null && result.bytes[kFunctionSlotNullOffset]) return Value::null(result_type);
  return read_function_slot(result, result_type);  // copies strings out of the query's heap
}

FunctionOverload FunctionRegistry::make_overload(std::string name, std::vector<TypeId> parameters,
                                                ResultTypeRule result_type,
                                                FunctionImplementation implementation) {
  std::string symbol = symbol_for(name, parameters);
  return FunctionOverload{std::move(name),          std::move(parameters),
                          std::move(result_type),   std::move(symbol),
                          implementation.thunk,     implementation.may_return_null,
                          implementation.is_volatile};
}

void FunctionRegistry::add(std::string name, std::vector<TypeId> parameters,
                           ResultTypeRule result_type, FunctionImplementation implementation) {
  std::vector<FunctionOverload>& overloads = by_name_[name];
  overloads.push_back(
      make_overload(std::move(name), std::move(parameters), std::move(result_type), implementation));
}

void FunctionRegistry::add_internal(std::string name, std::vector<TypeId> parameters,
                                    ResultTypeRule result_type,
                                    FunctionImplementation implementation) {
  std::string key = name;
  internal_.emplace(std::move(key), make_overload(std::move(name), std::move(parameters),
                                                  std::move(result_type), implementation));
}

const FunctionOverload& FunctionRegistry::internal(std::string_view name) const {
  auto found = internal_.find(std::string(name));
  if (found == internal_.end())
    throw Error("internal error: no internal function " + std::string(name));
  return found->second;
}

void FunctionRegistry::alias(std::string alias, std::string_view name) {
  std::vector<FunctionOverload> copies = overloads(name);
  for (FunctionOverload& overload : copies)
    add(alias, std::move(overload.parameters), std::move(overload.result_type),
        {overload.thunk, overload.may_return_null, overload.is_volatile});
}

const std::vector<FunctionOverload>& FunctionRegistry::overloads(std::string_view name) const {
  static const std::vector<FunctionOverload> kNone;
  auto found = by_name_.find(std::string(name));
  return found == by_name_.end() ? kNone : found->second;
}

const FunctionOverload* FunctionRegistry::by_symbol(std::string_view symbol) const {
  for (const FunctionOverload* overload : all())
    if (overload->symbol == symbol) return overload;
  return nullptr;
}

std::vector<const FunctionOverload*> FunctionRegistry::all() const {
  std::vector<const FunctionOverload*> result;
  for (const auto& [name, overloads] : by_name_)
    for (const FunctionOverload& overload : overloads) result.push_back(&overload);
  for (const auto& [name, overload] : internal_) result.push_back(&overload);
  return result;
}

const FunctionRegistry& function_registry() {
  static const FunctionRegistry registry = [] {
    FunctionRegistry r;
    register_math_functions(r);
    register_string_functions(r);
    register_pattern_functions(r);
    register_date_time_functions(r);
    register_subquery_functions(r);
    register_sequence_functions(r);
    return r;
  }();
  return registry;
}

ResultTypeRule returns(SqlType type) {
  return [type](std::span<const FunctionArgument>) { return type; };
}

ResultTypeRule returns_first_argument_type() {
  return [](std::span<const FunctionArgument> arguments) { return arguments[0].type; };
}

}  // namespace floe
