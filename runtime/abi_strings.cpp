// runtime_abi.h: string hashing, comparison, LIKE, SUBSTRING and concatenation. SUBSTRING
// counts UTF-8 characters (storage/utf8.h).
#include <algorithm>
#include <cstring>
#include <limits>

#include "runtime/abi_support.h"
#include "runtime/hash.h"
#include "runtime/like_matcher.h"
#include "storage/utf8.h"

using floe::string_from_halves;
using floe::StringRef;
using floe::to_floe_string;
using floe::WorkerContext;

extern "C" {

// A string of at most 12 bytes lives inside its 16-byte reference (storage/string_ref.h):
// `lo` holds the length and the first 4 bytes, `hi` the next 8. Hashing it from those words,
// with the bytes past its end masked off, avoids copying it out byte by byte (GROUP BY and
// joins on short strings hash every row). Long strings hash their bytes.
uint64_t floe_rt_hash_string(uint64_t lo, uint64_t hi, uint64_t seed) {
  const uint32_t length = static_cast<uint32_t>(lo);
  if (length > StringRef::kInlineLength) {
    StringRef s = string_from_halves(lo, hi);
    return floe::hash_bytes(s.data(), s.length, seed);
  }
  auto low_bytes = [](uint64_t word, uint32_t bytes) {
    return bytes >= 8 ? word : word & ((uint64_t{1} << (8 * bytes)) - 1);
  };
  const uint64_t head = low_bytes(lo >> 32, std::min<uint32_t>(length, 4));
  const uint64_t tail = length > 4 ? low_bytes(hi, length - 4) : 0;
  uint64_t h = (seed ^ (length * floe::kGoldenRatio64) ^ head) * floe::kGoldenRatio64;
  h ^= h >> 29;
  h = (h ^ tail) * floe::kGoldenRatio64;
  return floe::mix_hash(h);
}

bool floe_rt_string_equal(uint64_t a_lo, uint64_t a_hi, uint64_t b_lo, uint64_t b_hi) {
  return string_from_halves(a_lo, a_hi) == string_from_halves(b_lo, b_hi);
}

int32_t floe_rt_string_compare(uint64_t a_lo, uint64_t a_hi, uint64_t b_lo, uint64_t b_hi) {
  int c = StringRef::compare(string_from_halves(a_lo, a_hi), string_from_halves(b_lo, b_hi));
  return (c > 0) - (c < 0);
}

bool floe_rt_like(const floe::LikeMatcher* matcher, uint64_t lo, uint64_t hi) {
  return matcher->matches(string_from_halves(lo, hi).view());
}

bool floe_rt_substring(WorkerContext* worker, uint64_t lo, uint64_t hi, int64_t start,
                       int64_t length, bool has_length, FloeString* out) {
  if (has_length && length < 0) {
    worker->query->fail("negative substring length not allowed");
    return false;
  }
  // PostgreSQL: the wanted characters are positions [start, start + length) of a 1-based
  // string, so a start before 1 eats into the length.
  int64_t end = std::numeric_limits<int64_t>::max();
  if (has_length && __builtin_add_overflow(start, length, &end))
    end = std::numeric_limits<int64_t>::max();
  StringRef s = string_from_halves(lo, hi);
  std::string_view text = s.view();
  // A string has at most as many characters as bytes, so clamping to the byte count is safe.
  auto size = static_cast<int64_t>(text.size());
  auto first = static_cast<size_t>(std::clamp<int64_t>(start, 1, size + 1) - 1);
  auto last = static_cast<size_t>(std::clamp<int64_t>(end, 1, size + 1) - 1);
  std::string_view piece = text.substr(0, 0);
  if (last > first) {
    size_t from = floe::utf8_prefix_bytes(text, first);
    piece = text.substr(from, floe::utf8_prefix_bytes(text.substr(from), last - first));
  }
  // A long result points into the source's out-of-line bytes (a source of <= 12 bytes has
  // only short substrings, which are copied inline), so nothing is allocated.
  *out = to_floe_string(StringRef::from(piece));
  return true;
}

FloeString floe_rt_concat(WorkerContext* worker, uint64_t a_lo, uint64_t a_hi, uint64_t b_lo,
                          uint64_t b_hi) {
  StringRef a = string_from_halves(a_lo, a_hi);
  StringRef b = string_from_halves(b_lo, b_hi);
  size_t length = size_t{a.length} + b.length;
  char inline_buffer[StringRef::kInlineLength];
  char* bytes =
      length <= StringRef::kInlineLength ? inline_buffer : worker->strings->allocate(length);
  std::memcpy(bytes, a.data(), a.length);
  std::memcpy(bytes + a.length, b.data(), b.length);
  return to_floe_string(StringRef::from({bytes, length}));
}

}  // extern "C"
