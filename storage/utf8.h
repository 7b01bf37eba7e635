// UTF-8 text: floe's strings are UTF-8, and SQL counts and cuts them in characters, as
// PostgreSQL does in a UTF8 database. Text is checked once where it enters (SQL text, COPY),
// so everything else may assume valid UTF-8. ASCII, the common case (TPC-H is all ASCII),
// takes fast paths that look at 8 bytes at a time.
#pragma once

#include <bit>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <string_view>

namespace floe {

namespace utf8_detail {

constexpr uint64_t kHighBits = 0x8080808080808080ull;

inline uint64_t load8(const char* bytes) {
  uint64_t word;
  std::memcpy(&word, bytes, sizeof word);
  return word;
}

}  // namespace utf8_detail

inline bool is_utf8_continuation(char byte) {
  return (static_cast<unsigned char>(byte) & 0xC0) == 0x80;
}

// Characters of valid UTF-8 text: the bytes that are not continuation bytes (10xxxxxx).
inline size_t utf8_length(std::string_view text) {
  using namespace utf8_detail;
  size_t continuations = 0, i = 0;
  for (; i + 8 <= text.size(); i += 8) {
    uint64_t word = load8(text.data() + i);
    // Bit 7 of a byte set and bit 6 (moved up by the shift) clear.
    continuations += static_cast<size_t>(std::popcount(word & ~(word << 1) & kHighBits));
  }
  for (; i < text.size(); ++i) continuations += is_utf8_continuation(text[i]);
  return text.size() - continuations;
}

// Bytes taken by the first `characters` characters of valid UTF-8 text (all of it when it
// has fewer).
inline size_t utf8_prefix_bytes(std::string_view text, size_t characters) {
  using namespace utf8_detail;
  if (characters >= text.size()) return text.size();
  // While the bytes are ASCII, characters and bytes are the same.
  size_t at = 0;
  while (at + 8 <= characters && (load8(text.data() + at) & kHighBits) == 0) at += 8;
  for (size_t left = characters - at; left > 0 && at < text.size(); --left) {
    ++at;
    while (at < text.size() && is_utf8_continuation(text[at])) ++at;
  }
  return at;
}

// Byte offset of the first invalid sequence under PostgreSQL's rules (pg_utf8_islegal: no
// NUL, no overlong forms, no surrogates, nothing above U+10FFFF, no truncated sequence), or
// npos when `text` is valid UTF-8.
size_t find_invalid_utf8(std::string_view text);

// Throws floe::Error `invalid byte sequence for encoding "UTF8": 0x.. 0x..` (PostgreSQL's
// message, naming the bytes of the offending sequence) unless `text` is valid UTF-8.
void check_utf8(std::string_view text);

}  // namespace floe
