// Between the public API's types (engine/api/floe.h) and the engine's: values, types and
// errors. Used by the public classes' implementation (floe_*.cpp) only.
#pragma once

#include <utility>

#include "engine/api/floe.h"
#include "storage/error.h"
#include "storage/value.h"

namespace floe {

SqlType internal_type(const api::Type& type);
api::Type public_type(const SqlType& type);
Value internal_value(const api::Value& value);
api::Value public_value(const Value& value);

// The public error for an engine error: the same message and position, with its SQLSTATE
// (sql_state.cpp).
api::Error public_error(const Error& error);

// Runs `call`, turning the engine's errors into the public ones (SerializationFailure stays
// SerializationFailure).
template <typename Call>
auto with_public_errors(Call&& call) -> decltype(call()) {
  try {
    return std::forward<Call>(call)();
  } catch (const SerializationFailure& error) {
    throw api::SerializationFailure(error.what());
  } catch (const Error& error) {
    throw public_error(error);
  }
}

}  // namespace floe
