// SSE4.2 match kernels (Data Blocks paper, section 4.2): 128-bit compares, movemask, and the
// position table, each entry stored as two 128-bit halves. SSE has no gather, so reducing
// uses the branch-free scalar loop.
#include "runtime/simd_match_kernels.h"

#if defined(__x86_64__)

#include <immintrin.h>

#include <cstdint>
#include <type_traits>

#include "runtime/simd_match_scalar.h"
#include "runtime/simd_match_table.h"

#pragma GCC push_options
#pragma GCC target("sse4.2")

#include "runtime/simd_match_loop.h"

namespace floe::simd::detail {
namespace {

__m128i load(const void* p) {
  return _mm_loadu_si128(static_cast<const __m128i*>(p));
}

template <typename T>
__m128i splat(T value) {
  if constexpr (sizeof(T) == 1) return _mm_set1_epi8(static_cast<char>(value));
  if constexpr (sizeof(T) == 2) return _mm_set1_epi16(static_cast<short>(value));
  if constexpr (sizeof(T) == 4) return _mm_set1_epi32(static_cast<int>(value));
  if constexpr (sizeof(T) == 8) return _mm_set1_epi64x(static_cast<long long>(value));
}

// Integers: see unsigned_range() (runtime/simd_match_loop.h). 8-bit lanes: one movemask per
// register; 16-bit lanes: two registers packed to bytes for one movemask; 32- and 64-bit
// lanes: movemask_ps/_pd per register. _mm_cmpgt_epi64 (SSE4.2) is signed: flipping the sign
// bits makes it compare unsigned.
template <typename T>
struct Sse42Compare {
  static constexpr uint32_t kBlock = sizeof(T) <= 2 ? 16 : 8;
  Sse42Compare(T lo, T hi) : lo_(splat(lo)), range_(splat(signed_compare_range(lo, hi))) {}
  uint64_t mask(const T* p) const {
    if constexpr (sizeof(T) == 1) {
      return static_cast<uint32_t>(_mm_movemask_epi8(hits(load(p))));
    } else if constexpr (sizeof(T) == 2) {
      return static_cast<uint32_t>(
          _mm_movemask_epi8(_mm_packs_epi16(hits(load(p)), hits(load(p + 8)))));
    } else {
      constexpr uint32_t kLanes = 16 / sizeof(T);
      uint64_t bits = 0;
      for (uint32_t i = 0; i < kBlock; i += kLanes) bits |= uint64_t{lane_bits(load(p + i))} << i;
      return bits;
    }
  }

 private:
  // All ones in the lanes in range (8- to 32-bit lanes).
  __m128i hits(__m128i values) const {
    if constexpr (sizeof(T) == 1) {
      __m128i delta = _mm_sub_epi8(values, lo_);
      return _mm_cmpeq_epi8(_mm_min_epu8(delta, range_), delta);
    } else if constexpr (sizeof(T) == 2) {
      __m128i delta = _mm_sub_epi16(values, lo_);
      return _mm_cmpeq_epi16(_mm_min_epu16(delta, range_), delta);
    } else {
      __m128i delta = _mm_sub_epi32(values, lo_);
      return _mm_cmpeq_epi32(_mm_min_epu32(delta, range_), delta);
    }
  }
  // One bit per 32- or 64-bit lane.
  uint32_t lane_bits(__m128i values) const {
    if constexpr (sizeof(T) == 4) {
      return static_cast<uint32_t>(_mm_movemask_ps(_mm_castsi128_ps(hits(values))));
    } else {
      __m128i delta = _mm_xor_si128(_mm_sub_epi64(values, lo_), splat(kSignBit));
      __m128i misses = _mm_cmpgt_epi64(delta, range_);
      return ~static_cast<uint32_t>(_mm_movemask_pd(_mm_castsi128_pd(misses))) & 3;
    }
  }
  __m128i lo_, range_;
};

// Ordered comparisons: NaN lanes never match.
template <>
struct Sse42Compare<double> {
  static constexpr uint32_t kBlock = 8;
  Sse42Compare(double lo, double hi) : lo_(_mm_set1_pd(lo)), hi_(_mm_set1_pd(hi)) {}
  uint64_t mask(const double* p) const {
    return lane_bits(_mm_loadu_pd(p)) | lane_bits(_mm_loadu_pd(p + 2)) << 2 |
           lane_bits(_mm_loadu_pd(p + 4)) << 4 | lane_bits(_mm_loadu_pd(p + 6)) << 6;
  }

 private:
  uint32_t lane_bits(__m128d values) const {
    __m128d hits = _mm_and_pd(_mm_cmpge_pd(values, lo_), _mm_cmple_pd(values, hi_));
    return static_cast<uint32_t>(_mm_movemask_pd(hits));
  }
  __m128d lo_, hi_;
};

// Figure 7(a) with 128-bit registers: the 8 positions of a table entry in two stores.
struct Sse42Emit {
  static constexpr uint32_t kWidth = 8;
  static uint32_t* emit(uint32_t mask8, uint32_t base, uint32_t* out) {
    const MatchTableEntry& entry = kMatchTable[mask8];
    const auto* cells = reinterpret_cast<const __m128i*>(entry.cells);
    __m128i base_vector = _mm_set1_epi32(static_cast<int>(base));
    _mm_storeu_si128(
        reinterpret_cast<__m128i*>(out),
        _mm_add_epi32(base_vector, _mm_srli_epi32(_mm_load_si128(cells), kMatchTableCountBits)));
    _mm_storeu_si128(reinterpret_cast<__m128i*>(out + 4),
                     _mm_add_epi32(base_vector, _mm_srli_epi32(_mm_load_si128(cells + 1),
                                                               kMatchTableCountBits)));
    return out + entry.count();
  }
};

template <typename T>
struct Sse42Kernel : ScalarKernel<T> {
  static uint32_t find(const T* values, uint32_t begin, uint32_t end, T lo, T hi, uint32_t* out) {
    return find_matches_loop<Sse42Compare, Sse42Emit>(values, begin, end, lo, hi, out);
  }
};

uint32_t find_bits(const uint64_t* bitmap, uint32_t offset, uint32_t begin, uint32_t end, bool want,
                   uint32_t* out) {
  return find_bits_loop<Sse42Emit>(bitmap, offset, begin, end, want, out);
}

}  // namespace

constinit const KernelTable kSse42Kernels{AllMatchKernels::of<Sse42Kernel>(), &find_bits};

}  // namespace floe::simd::detail

#pragma GCC pop_options

#endif  // defined(__x86_64__)
