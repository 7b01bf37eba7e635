// Hashing helpers shared by the runtime's hash tables and string functions.
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstring>

namespace floe {

constexpr uint64_t kGoldenRatio64 = 0x9E3779B97F4A7C15ull;

// Final avalanche of a 64-bit value (multiply-xorshift; every input bit reaches every
// output bit).
inline uint64_t mix_hash(uint64_t x) {
  constexpr uint64_t kMul = 0xD6E8FEB86659FD93ull;
  x ^= x >> 32;
  x *= kMul;
  x ^= x >> 32;
  x *= kMul;
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
