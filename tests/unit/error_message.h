// The message of the floe::Error that `fn` throws, or "no error": for tests that compare
// messages with PostgreSQL's.
#pragma once

#include <string>

#include "storage/error.h"

namespace floe::testing {

template <typename Fn>
std::string error_of(Fn&& fn) {
  try {
    fn();
  } catch (const Error& error) {
    return error.what();
  }
  return "no error";
}

}  // namespace floe::testing
