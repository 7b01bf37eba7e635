// runtime_abi.h: string hashing, comparison and LIKE.
#include "runtime/abi_support.h"
#include "runtime/hash.h"
#include "runtime/like_matcher.h"

using floe::string_from_halves;
using floe::StringRef;

extern "C" {

// runtime/hash.h's hash_string (generated code hashes strings through this call).
uint64_t floe_rt_hash_string(uint64_t lo, uint64_t hi, uint64_t seed) {
  return floe::hash_string(string_from_halves(lo, hi), seed);
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
