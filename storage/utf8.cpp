#include "storage/utf8.h"

#include <algorithm>
#include <cstdio>
#include <string>

#include "storage/error.h"

namespace floe {

namespace {

// Bytes of the sequence a lead byte announces; 1 for bytes that cannot lead (pg_utf_mblen).
size_t sequence_length(unsigned char lead) {
  if (lead < 0x80) return 1;
  if ((lead & 0xE0) == 0xC0) return 2;
  if ((lead & 0xF0) == 0xE0) return 3;
  if ((lead & 0xF8) == 0xF0) return 4;
  return 1;
}

bool in(unsigned char byte, unsigned char low, unsigned char high) {
  return byte >= low && byte <= high;
}

// Whether the `length` bytes at `s` are one legal non-ASCII character.
bool legal_sequence(const unsigned char* s, size_t length) {
  unsigned char lead = s[0];
  if (length == 1 || lead < 0xC2 || lead > 0xF4) return false;
  // The second byte's range excludes overlong forms, surrogates and code points > U+10FFFF.
  unsigned char low = 0x80, high = 0xBF;
  if (lead == 0xE0) low = 0xA0;
  if (lead == 0xED) high = 0x9F;
  if (lead == 0xF0) low = 0x90;
  if (lead == 0xF4) high = 0x8F;
  if (!in(s[1], low, high)) return false;
  for (size_t i = 2; i < length; ++i)
    if (!in(s[i], 0x80, 0xBF)) return false;
  return true;
}

}  // namespace

size_t find_invalid_utf8(std::string_view text) {
  using namespace utf8_detail;
  const auto* s = reinterpret_cast<const unsigned char*>(text.data());
  size_t size = text.size();
  size_t at = 0;
  while (at < size) {
    // Eight ASCII bytes without a NUL at a time: no high bit, and no byte that is zero.
    if (at + 8 <= size) {
      uint64_t word = load8(text.data() + at);
      uint64_t zero_bytes = (word - 0x0101010101010101ull) & ~word & kHighBits;
      if (((word & kHighBits) | zero_bytes) == 0) {
        at += 8;
        continue;
      }
    }
    unsigned char lead = s[at];
    if (lead < 0x80) {
      if (lead == 0) return at;
      ++at;
      continue;
    }
    size_t length = sequence_length(lead);
    if (at + length > size || !legal_sequence(s + at, length)) return at;
    at += length;
  }
  return std::string_view::npos;
}

void check_utf8(std::string_view text) {
  size_t at = find_invalid_utf8(text);
  if (at == std::string_view::npos) return;
  // PostgreSQL names the bytes the lead byte announces, as far as the text has them.
  size_t count = std::min(sequence_length(static_cast<unsigned char>(text[at])), text.size() - at);
  std::string bytes;
  for (size_t i = 0; i < count; ++i) {
    char hex[8];
    std::snprintf(hex, sizeof hex, "%s0x%02x", i ? " " : "",
                  static_cast<unsigned char>(text[at + i]));
    bytes += hex;
  }
  throw Error("invalid byte sequence for encoding \"UTF8\": " + bytes);
}

}  // namespace floe
