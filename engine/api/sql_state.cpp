// The SQLSTATE of an engine error for the public API (floe::api::Error::sql_state). The engine
// throws one error type with PostgreSQL's message texts (storage/error.h); the class follows
// from the message as in PostgreSQL's errcodes.txt, and from the few error subclasses.
#include <string_view>

#include "engine/api/floe_convert.h"
#include "storage/stack_depth.h"

namespace floe {

namespace {

// A message of the class starts with `prefix` and contains `part` (either may be empty); the
// first match counts.
struct MessageState {
  std::string_view prefix;
  std::string_view part;
  const char* sql_state;
};

constexpr MessageState kStates[] = {
    {"", "\" already exists", "42P07"},
    {"syntax error", "", "42601"},
    {"relation \"", "does not exist", "42P01"},
    {"column \"", "does not exist", "42703"},
    {"function ", "does not exist", "42883"},
    {"operator does not exist", "", "42883"},
    {"cannot cast type ", "", "42846"},
    {"duplicate key value violates unique constraint", "", "23505"},
    {"null value in column", "", "23502"},
    {"", "violates check constraint", "23514"},
    {"", "violates foreign key constraint", "23503"},
    {"division by zero", "", "22012"},
    {"invalid input syntax for type", "", "22P02"},
    {"", "out of range", "22003"},
    {"value too long for type", "", "22001"},
    {"there is already a transaction in progress", "", "25001"},
    {"current transaction is aborted", "", "25P02"},
    {"the transaction was rolled back: an earlier error aborted it", "", "25P02"},
    {"canceling statement due to user request", "", "57014"},
    {"wrong number of parameters", "", "08P01"},
    {"there is no parameter $", "", "42P02"},
};

const char* sql_state_of(const Error& error) {
  if (dynamic_cast<const NotSupported*>(&error)) return "0A000";
  if (dynamic_cast<const StackDepthExceeded*>(&error)) return "54001";
  std::string_view message = error.what();
  for (const MessageState& state : kStates) {
    if (message.starts_with(state.prefix) && message.find(state.part) != std::string_view::npos)
      return state.sql_state;
  }
  return "XX000";
}

}  // namespace

api::Error public_error(const Error& error) {
  return api::Error(error.what(), sql_state_of(error), error.position());
}

}  // namespace floe
