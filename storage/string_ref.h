// 16-byte "German string" (DESIGN.md "Strings"): length, 4-byte prefix, then either the
// remaining 8 bytes inline (length <= 12) or a pointer to the full bytes. Comparisons look
// at the prefix first, so most inequalities never follow the pointer.
#pragma once

#include <cstdint>
#include <cstring>
#include <string_view>

namespace floe {

struct StringRef {
  static constexpr uint32_t kInlineLength = 12;

  uint32_t length = 0;
  char prefix[4] = {0, 0, 0, 0};
  union {
    char inlined[8];
    const char* pointer;
  } rest = {};

  StringRef() = default;

  // Does not copy long strings: `bytes` must outlive the StringRef when size > 12.
  static StringRef from(std::string_view bytes) {
    StringRef s;
    s.length = static_cast<uint32_t>(bytes.size());
    if (s.length <= kInlineLength) {
      std::memcpy(s.inline_bytes(), bytes.data(), s.length);
    } else {
      std::memcpy(s.prefix, bytes.data(), 4);
      s.rest.pointer = bytes.data();
    }
    return s;
  }

  bool is_inline() const { return length <= kInlineLength; }
  // Inline strings occupy prefix and rest.inlined as one 12-byte run.
  char* inline_bytes() { return reinterpret_cast<char*>(this) + 4; }
  const char* inline_bytes() const { return reinterpret_cast<const char*>(this) + 4; }
  const char* data() const { return is_inline() ? inline_bytes() : rest.pointer; }
  std::string_view view() const { return {data(), length}; }

  friend bool operator==(const StringRef& a, const StringRef& b) {
    uint64_t a_head, b_head;
    std::memcpy(&a_head, &a, 8);
    std::memcpy(&b_head, &b, 8);
    if (a_head != b_head) return false;  // length and prefix in one compare
    if (a.is_inline()) return std::memcmp(a.rest.inlined, b.rest.inlined, 8) == 0;
    return std::memcmp(a.rest.pointer + 4, b.rest.pointer + 4, a.length - 4) == 0;
  }

  // <0, 0, >0 like memcmp, bytewise (the "C" collation).
  static int compare(const StringRef& a, const StringRef& b) {
    uint32_t min_length = a.length < b.length ? a.length : b.length;
    int c = std::memcmp(a.prefix, b.prefix, min_length < 4 ? min_length : 4);
    if (c != 0) return c;
    if (min_length > 4) {
      c = std::memcmp(a.data() + 4, b.data() + 4, min_length - 4);
      if (c != 0) return c;
    }
    return a.length < b.length ? -1 : (a.length > b.length ? 1 : 0);
  }
};
static_assert(sizeof(StringRef) == 16);

}  // namespace floe
