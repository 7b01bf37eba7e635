// Branch-free scalar match finding (the sequential baseline of the Data Blocks paper, section
// 4.2): every position is written, and the write cursor advances by the predicate, so the
// cost does not depend on the selectivity and nothing is mispredicted. The scalar kernels are
// these loops; the SIMD kernels use them for the elements left over after their last full
// register. Portable C++.
#pragma once

#include <cstdint>

namespace floe::simd::detail {

// Ordered comparisons: false for NaN.
template <typename T>
inline uint32_t in_range(T value, T lo, T hi) {
  return static_cast<uint32_t>(lo <= value) & static_cast<uint32_t>(value <= hi);
}

// Appends the positions p in [begin, end) with values[p] in [lo, hi] at out; returns the new
// end of out.
template <typename T>
inline uint32_t* scalar_find(const T* values, uint32_t begin, uint32_t end, T lo, T hi,
                             uint32_t* out) {
  for (uint32_t p = begin; p < end; ++p) {
    *out = p;
    out += in_range(values[p], lo, hi);
  }
  return out;
}

// Appends the positions[0, count) whose value is in [lo, hi]; out may be positions (the
// cursor never passes the read index).
template <typename T>
inline uint32_t* scalar_reduce(const T* values, const uint32_t* positions, uint32_t count, T lo,
                               T hi, uint32_t* out) {
  for (uint32_t i = 0; i < count; ++i) {
    uint32_t position = positions[i];
    *out = position;
    out += in_range(values[position], lo, hi);
  }
  return out;
}

// Bit (row + offset) of a validity bitmap (storage/hot_chunk.h layout).
inline uint32_t validity_bit(const uint64_t* bitmap, uint32_t offset, uint32_t row) {
  uint64_t bit = uint64_t{row} + offset;
  return static_cast<uint32_t>(bitmap[bit >> 6] >> (bit & 63) & 1);
}

// Appends the rows in [begin, end) whose validity bit equals want.
inline uint32_t* scalar_find_bits(const uint64_t* bitmap, uint32_t offset, uint32_t begin,
                                  uint32_t end, bool want, uint32_t* out) {
  uint32_t flip = want ? 0 : 1;
  for (uint32_t p = begin; p < end; ++p) {
    *out = p;
    out += validity_bit(bitmap, offset, p) ^ flip;
  }
  return out;
}

// The scalar level's kernels (runtime/simd_match_kernels.h); SSE4.2 reuses their reduce.
template <typename T>
struct ScalarKernel {
  static uint32_t find(const T* values, uint32_t begin, uint32_t end, T lo, T hi, uint32_t* out) {
    return static_cast<uint32_t>(scalar_find(values, begin, end, lo, hi, out) - out);
  }
  static uint32_t reduce(const T* values, const uint32_t* positions, uint32_t count, T lo, T hi,
                         uint32_t* out) {
    return static_cast<uint32_t>(scalar_reduce(values, positions, count, lo, hi, out) - out);
  }
};

}  // namespace floe::simd::detail
