// Helpers shared by the files that implement runtime_abi.h.
#pragma once

#include <array>
#include <bit>
#include <exception>

#include "runtime/query_context.h"
#include "runtime/runtime_abi.h"
#include "storage/string_ref.h"

namespace floe {

// A string crosses the ABI as the two 8-byte halves of its StringRef.
inline StringRef string_from_halves(uint64_t lo, uint64_t hi) {
  return std::bit_cast<StringRef>(std::array<uint64_t, 2>{lo, hi});
}

inline FloeString to_floe_string(const StringRef& s) {
  return std::bit_cast<FloeString>(s);
}

// Runs `fn`; an exception becomes the query's recorded error and a false result, since
// nothing may throw into generated code.
template <typename Fn>
bool record_failure(WorkerContext* worker, Fn&& fn) {
  try {
    fn();
    return true;
  } catch (const std::exception& e) {
    worker->query->fail(e.what());
    return false;
  }
}

}  // namespace floe
