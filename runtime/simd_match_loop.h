// The loops shared by the SIMD match kernels (runtime/simd_match_{sse42,avx2,avx512}.cpp).
// Include this AFTER the `#pragma GCC target` of the including file: the loops are compiled
// for that file's instruction set, so its compare, gather and emit steps inline into them.
// That is also why everything here has internal linkage: each kernel file gets its own copy.
//
// A level provides, for element type T:
//   Compare<T>  kBlock (a multiple of Emit::kWidth, at most 64), Compare(lo, hi) with
//               lo <= hi, and uint64_t mask(const T* p): bit i set when lo <= p[i] <= hi,
//               for i < kBlock.
//   Gather<T>   kBlock, Gather(values, lo, hi) with lo <= hi, and
//               uint32_t* reduce(positions, out): appends the positions[0, kBlock) whose
//               value is in range at out (which may alias positions) and returns the new
//               end; may store kBlock positions from out.
//   Emit        kWidth (8 or 16) and uint32_t* emit(uint32_t mask, uint32_t base, uint32_t* out):
//               appends base + i for the set bits i of mask[0, kWidth) and returns the new
//               end; may store kWidth positions from out.
//
// The including file includes the headers below (and every other header) BEFORE its pragma:
// inline functions with external linkage must not be compiled for a wider instruction set in
// one file than in another, or the linker may keep the wider copy for all callers.
#pragma once

#include <cstdint>
#include <type_traits>

#include "runtime/simd_match_kernels.h"
#include "runtime/simd_match_scalar.h"
#include "runtime/simd_match_table.h"

namespace floe::simd::detail {
namespace {  // NOLINT(build/namespaces): one copy per kernel file, see above

// hi - lo in the unsigned type of T's width: for integers, lo <= v <= hi exactly when
// v - lo <= hi - lo as unsigned numbers with wrapping subtraction (given lo <= hi). That is
// one subtraction and one unsigned comparison per register, for signed and unsigned types.
template <typename T>
inline std::make_unsigned_t<T> unsigned_range(T lo, T hi) {
  using U = std::make_unsigned_t<T>;
  return static_cast<U>(static_cast<U>(hi) - static_cast<U>(lo));
}

constexpr uint64_t kSignBit = uint64_t{1} << 63;

// SSE4.2 and AVX2 compare 64-bit lanes only as signed numbers: with the sign bits of both
// operands flipped, the signed comparison gives the unsigned one. This is the range operand
// for that (unchanged for narrower lanes).
template <typename T>
inline std::make_unsigned_t<T> signed_compare_range(T lo, T hi) {
  std::make_unsigned_t<T> range = unsigned_range(lo, hi);
  if constexpr (sizeof(T) == 8) range ^= kSignBit;
  return range;
}

// Appends base + i for the set bits i of mask[0, bits) (bits a multiple of Emit::kWidth).
template <class Emit>
inline uint32_t* emit_mask(uint64_t mask, uint32_t bits, uint32_t base, uint32_t* out) {
  constexpr uint64_t kPart = (uint64_t{1} << Emit::kWidth) - 1;
  for (uint32_t k = 0; k < bits; k += Emit::kWidth) {
    out = Emit::emit(static_cast<uint32_t>(mask >> k & kPart), base + k, out);
  }
  return out;
}

// An emit stores kWidth positions from the cursor, which is at most (position - begin), so
// the stores stay inside out[0, end - begin).
template <template <typename> class Compare, class Emit, typename T>
uint32_t find_matches_loop(const T* values, uint32_t begin, uint32_t end, T lo, T hi,
                           uint32_t* out) {
  using Cmp = Compare<T>;
  static_assert(Cmp::kBlock % Emit::kWidth == 0);
  const Cmp compare(lo, hi);
  uint32_t* cursor = out;
  uint32_t p = begin;
  for (; end - p >= Cmp::kBlock; p += Cmp::kBlock) {
    cursor = emit_mask<Emit>(compare.mask(values + p), Cmp::kBlock, p, cursor);
  }
  return static_cast<uint32_t>(scalar_find(values, p, end, lo, hi, cursor) - out);
}

template <template <typename> class Gather, typename T>
uint32_t reduce_matches_loop(const T* values, const uint32_t* positions, uint32_t count, T lo, T hi,
                             uint32_t* out) {
  using G = Gather<T>;
  const G gather(values, lo, hi);
  uint32_t* cursor = out;
  uint32_t i = 0;
  for (; count - i >= G::kBlock; i += G::kBlock) {
    cursor = gather.reduce(positions + i, cursor);
  }
  return static_cast<uint32_t>(scalar_reduce(values, positions + i, count - i, lo, hi, cursor) -
                               out);
}

// The 64 validity bits of rows [p, p + 64), row p in bit 0.
inline uint64_t validity_word(const uint64_t* bitmap, uint32_t offset, uint32_t p) {
  uint64_t first = uint64_t{p} + offset;
  uint64_t word = first >> 6;
  unsigned shift = first & 63;
  if (shift == 0) return bitmap[word];
  return bitmap[word] >> shift | bitmap[word + 1] << (64 - shift);
}

template <class Emit>
uint32_t find_bits_loop(const uint64_t* bitmap, uint32_t offset, uint32_t begin, uint32_t end,
                        bool want, uint32_t* out) {
  const uint64_t flip = want ? 0 : ~uint64_t{0};
  uint32_t* cursor = out;
  uint32_t p = begin;
  for (; end - p >= 64; p += 64) {
    cursor = emit_mask<Emit>(validity_word(bitmap, offset, p) ^ flip, 64, p, cursor);
  }
  return static_cast<uint32_t>(scalar_find_bits(bitmap, offset, p, end, want, cursor) - out);
}

// The kernel table of a level with a gather: its loops over Compare, Emit and Gather.
template <template <typename> class Compare, class Emit, template <typename> class Gather>
struct GatherLevel {
  template <typename T>
  struct Kernel {
    static uint32_t find(const T* values, uint32_t begin, uint32_t end, T lo, T hi, uint32_t* out) {
      return find_matches_loop<Compare, Emit>(values, begin, end, lo, hi, out);
    }
    static uint32_t reduce(const T* values, const uint32_t* positions, uint32_t count, T lo, T hi,
                           uint32_t* out) {
      return reduce_matches_loop<Gather>(values, positions, count, lo, hi, out);
    }
  };
  static uint32_t find_bits(const uint64_t* bitmap, uint32_t offset, uint32_t begin, uint32_t end,
                            bool want, uint32_t* out) {
    return find_bits_loop<Emit>(bitmap, offset, begin, end, want, out);
  }
  static constexpr KernelTable table() { return {AllMatchKernels::of<Kernel>(), &find_bits}; }
};

}  // namespace
}  // namespace floe::simd::detail
