// Hashing helpers shared by the runtime's hash tables and string functions.
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <limits>
#include <type_traits>

#include "storage/interval.h"
#include "storage/string_ref.h"

namespace floe {

constexpr uint64_t kGoldenRatio64 = 0x9E3779B97F4A7C15ull;
constexpr uint64_t kMixMultiplier64 = 0xD6E8FEB86659FD93ull;

// Final avalanche of a 64-bit value (multiply-xorshift; every input bit reaches every
// output bit).
inline uint64_t mix_hash(uint64_t x) {
  x ^= x >> 32;
  x *= kMixMultiplier64;
  x ^= x >> 32;
  x *= kMixMultiplier64;
  x ^= x >> 32;
  return x;
}

// 64-bit hash of a byte string: one multiply-xorshift step per 8-byte word, then a final
// avalanche. The result depends only on the bytes, so inline and out-of-line copies of a
// string hash alike.
inline uint64_t hash_bytes(const char* data, size_t length, uint64_t seed) {
  uint64_t h = seed ^ (length * kGoldenRatio64);
  size_t i = 0;
  for (; i + 8 <= length; i += 8) {
    uint64_t word;
    std::memcpy(&word, data + i, 8);
    h = (h ^ word) * kGoldenRatio64;
    h ^= h >> 29;
  }
  if (i < length) {
    uint64_t word = 0;
    std::memcpy(&word, data + i, length - i);
    h = (h ^ word) * kGoldenRatio64;
  }
  return mix_hash(h);
}

// ---- SQL key hashing --------------------------------------------------------------------
// The hash of a key value chained onto `seed` (the hash of the key's earlier columns, 0 for
// the first). One definition for both engines: codegen/expression_hash.cpp emits these
// steps inline in IR (and calls hash_string), the vectorized engine calls them over vectors
// (runtime/vector/key_hash.h); a morsel of either engine finds the other's rows in one hash
// table. tests/unit/vector_hash_test.cpp compares them with generated code.

// One 64-bit word (integers sign-extended, booleans 0/1).
inline uint64_t hash_word(uint64_t word, uint64_t seed) {
  return mix_hash((word ^ seed) * kGoldenRatio64);
}

// 128-bit integers (numeric(>18)): the high word, then the low one.
inline uint64_t hash_int128(__int128 value, uint64_t seed) {
  auto high = static_cast<uint64_t>(static_cast<unsigned __int128>(value) >> 64);
  return hash_word(static_cast<uint64_t>(value), hash_word(high, seed));
}

// Doubles by their bits, with -0.0 as 0.0 and every NaN as one NaN: SQL-equal doubles hash
// alike (NaN = NaN in PostgreSQL).
inline uint64_t hash_double(double value, uint64_t seed) {
  double canonical = value == 0.0 ? 0.0 : value;
  if (value != value) canonical = std::numeric_limits<double>::quiet_NaN();
  uint64_t bits;
  std::memcpy(&bits, &canonical, 8);
  return hash_word(bits, seed);
}

// Intervals by their span (SQL equality: '1 mon' = '30 days').
inline uint64_t hash_interval(const Interval& value, uint64_t seed) {
  return hash_int128(interval_span(value), seed);
}

// A string of at most 12 bytes lives inside its StringRef: it hashes from the two words of
// the reference, with the bytes past its end masked off, instead of being copied out byte by
// byte (GROUP BY and joins on short strings hash every row). Long strings hash their bytes.
inline uint64_t hash_string(const StringRef& value, uint64_t seed) {
  if (!value.is_inline()) return hash_bytes(value.data(), value.length, seed);
  uint64_t words[2];
  std::memcpy(words, &value, 16);
  const uint64_t lo = words[0], hi = words[1];
  auto low_bytes = [](uint64_t word, uint32_t bytes) {
    return bytes >= 8 ? word : word & ((uint64_t{1} << (8 * bytes)) - 1);
  };
  const uint32_t length = value.length;
  const uint64_t head = low_bytes(lo >> 32, length < 4 ? length : 4);
  const uint64_t tail = length > 4 ? low_bytes(hi, length - 4) : 0;
  uint64_t h = (seed ^ (length * kGoldenRatio64) ^ head) * kGoldenRatio64;
  h ^= h >> 29;
  h = (h ^ tail) * kGoldenRatio64;
  return mix_hash(h);
}

// A physical value of any key type (BOOLEAN: uint8_t 0/1).
template <typename T>
inline uint64_t hash_key_value(const T& value, uint64_t seed) {
  if constexpr (std::is_same_v<T, double>) {
    return hash_double(value, seed);
  } else if constexpr (std::is_same_v<T, __int128>) {
    return hash_int128(value, seed);
  } else if constexpr (std::is_same_v<T, Interval>) {
    return hash_interval(value, seed);
  } else if constexpr (std::is_same_v<T, StringRef>) {
    return hash_string(value, seed);
  } else {
    return hash_word(static_cast<uint64_t>(static_cast<int64_t>(value)), seed);
  }
}

// A NULL key column: the chain so far, flipped by a constant (NULL keys never match in a
// join, but GROUP BY puts all of a column's NULLs in one group).
constexpr uint64_t kNullKeyHash = kGoldenRatio64;
inline uint64_t hash_null_key(uint64_t seed) {
  return seed ^ kNullKeyHash;
}

// Power-of-two directory whose slot comes from the high bits of hash * golden ratio
// (Fibonacci hashing): every bit of the hash counts, whether generated code hashed with a
// full 64-bit mix or with a 32-bit CRC.
class HashDirectoryShape {
 public:
  static constexpr unsigned kMinBits = 4;
  static constexpr unsigned kMaxBits = 56;  // leaves room below the slot bits for tags

  // Smallest power of two >= 2 * entries (at least 2^kMinBits slots).
  static HashDirectoryShape for_entries(uint64_t entries) {
    unsigned bits = kMinBits;
    while (bits < kMaxBits && (uint64_t{1} << bits) < 2 * entries) ++bits;
    return HashDirectoryShape(bits);
  }

  explicit HashDirectoryShape(unsigned bits) : bits_(bits) {}

  static uint64_t scramble(uint64_t hash) { return hash * kGoldenRatio64; }
  unsigned bits() const { return bits_; }
  uint64_t capacity() const { return uint64_t{1} << bits_; }
  uint64_t slot(uint64_t scrambled) const { return scrambled >> (64 - bits_); }
  // The `count` bits right below the slot bits: they differ between hashes sharing a slot.
  uint64_t bits_below_slot(uint64_t scrambled, unsigned count) const {
    return (scrambled >> (64 - bits_ - count)) & ((uint64_t{1} << count) - 1);
  }

 private:
  unsigned bits_;
};

}  // namespace floe
