// runtime_abi.h: string hashing, comparison and LIKE.
#include "runtime/abi_support.h"
#include "runtime/hash.h"
#include "runtime/like_matcher.h"

using floe::string_from_halves;
using floe::StringRef;

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

}  // extern "C"
