// Test helpers: moving strings across the runtime ABI as generated code does.
#pragma once

#include <bit>
#include <string>
#include <string_view>

#include "runtime/runtime_abi.h"
#include "storage/string_ref.h"

namespace floe::testing {

struct Halves {
  uint64_t lo;
  uint64_t hi;
};

// `text` must outlive the result when longer than 12 bytes.
inline Halves halves(std::string_view text) {
  return std::bit_cast<Halves>(StringRef::from(text));
}

inline std::string text_of(FloeString s) {
  return std::string(std::bit_cast<StringRef>(s).view());
}

}  // namespace floe::testing
