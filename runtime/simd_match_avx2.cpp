// AVX2 match kernels (Data Blocks paper, section 4.2 and appendix C; the level of its
// Figures 8 and 9). 256-bit compares, movemask, and the position table; reducing gathers the
// values with _mm256_i32gather and permutes the positions with the table entries.
#include "runtime/simd_match_kernels.h"

#if defined(__x86_64__)

#include <immintrin.h>

#include <cstdint>
#include <type_traits>

#include "runtime/simd_match_scalar.h"
#include "runtime/simd_match_table.h"

#pragma GCC push_options
#pragma GCC target("avx2")
// GCC 12 reports the _mm*_undefined_*() pass-through operands of shifts and gathers as
// uninitialized (GCC bug 105593).
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wmaybe-uninitialized"

#include "runtime/simd_match_loop.h"

namespace floe::simd::detail {
namespace {

__m256i load(const void* p) {
  return _mm256_loadu_si256(static_cast<const __m256i*>(p));
}

template <typename T>
__m256i splat(T value) {
  if constexpr (sizeof(T) == 1) return _mm256_set1_epi8(static_cast<char>(value));
  if constexpr (sizeof(T) == 2) return _mm256_set1_epi16(static_cast<short>(value));
  if constexpr (sizeof(T) == 4) return _mm256_set1_epi32(static_cast<int>(value));
  if constexpr (sizeof(T) == 8) return _mm256_set1_epi64x(static_cast<long long>(value));
}

// Integers: see unsigned_range() (runtime/simd_match_loop.h). 8-bit lanes: one movemask per
// register. 16-bit lanes: two registers packed to bytes for one movemask (packs works per
// 128-bit half; the permute restores the order). 32- and 64-bit lanes: movemask_ps/_pd.
// AVX2 has no unsigned 64-bit compare: flipping the sign bits turns the unsigned comparison
// into the signed one of _mm256_cmpgt_epi64.
template <typename T>
struct Avx2Compare {
  static constexpr uint32_t kBlock = sizeof(T) <= 2 ? 32 : 8;
  Avx2Compare(T lo, T hi) : lo_(splat(lo)), range_(splat(signed_compare_range(lo, hi))) {}
  uint64_t mask(const T* p) const {
    if constexpr (sizeof(T) == 1) {
      return static_cast<uint32_t>(_mm256_movemask_epi8(hits(load(p))));
    } else if constexpr (sizeof(T) == 2) {
      __m256i packed = _mm256_packs_epi16(hits(load(p)), hits(load(p + 16)));
      return static_cast<uint32_t>(_mm256_movemask_epi8(_mm256_permute4x64_epi64(packed, 0xD8)));
    } else if constexpr (sizeof(T) == 4) {
      return lane_bits(load(p));
    } else {
      return lane_bits(load(p)) | lane_bits(load(p + 4)) << 4;
    }
  }
  // One bit per 32- or 64-bit lane.
  uint32_t lane_bits(__m256i values) const {
    if constexpr (sizeof(T) == 4) {
      return static_cast<uint32_t>(_mm256_movemask_ps(_mm256_castsi256_ps(hits(values))));
    } else {
      __m256i delta = _mm256_xor_si256(_mm256_sub_epi64(values, lo_), splat(kSignBit));
      __m256i misses = _mm256_cmpgt_epi64(delta, range_);
      return ~static_cast<uint32_t>(_mm256_movemask_pd(_mm256_castsi256_pd(misses))) & 0xF;
    }
  }

 private:
  // All ones in the lanes in range (8- to 32-bit lanes).
  __m256i hits(__m256i values) const {
    if constexpr (sizeof(T) == 1) {
      __m256i delta = _mm256_sub_epi8(values, lo_);
      return _mm256_cmpeq_epi8(_mm256_min_epu8(delta, range_), delta);
    } else if constexpr (sizeof(T) == 2) {
      __m256i delta = _mm256_sub_epi16(values, lo_);
      return _mm256_cmpeq_epi16(_mm256_min_epu16(delta, range_), delta);
    } else {
      __m256i delta = _mm256_sub_epi32(values, lo_);
      return _mm256_cmpeq_epi32(_mm256_min_epu32(delta, range_), delta);
    }
  }
  __m256i lo_, range_;
};

// Ordered, quiet comparisons: NaN lanes never match.
template <>
struct Avx2Compare<double> {
  static constexpr uint32_t kBlock = 8;
  Avx2Compare(double lo, double hi) : lo_(_mm256_set1_pd(lo)), hi_(_mm256_set1_pd(hi)) {}
  uint64_t mask(const double* p) const {
    return lane_bits(_mm256_loadu_pd(p)) | lane_bits(_mm256_loadu_pd(p + 4)) << 4;
  }
  uint32_t lane_bits(__m256d values) const {
    __m256d hits = _mm256_and_pd(_mm256_cmp_pd(values, lo_, _CMP_GE_OQ),
                                 _mm256_cmp_pd(values, hi_, _CMP_LE_OQ));
    return static_cast<uint32_t>(_mm256_movemask_pd(hits));
  }

 private:
  __m256d lo_, hi_;
};

// Figure 7(a): the table entry, shifted, plus the base position; 8 positions per store.
struct Avx2Emit {
  static constexpr uint32_t kWidth = 8;
  static uint32_t* emit(uint32_t mask8, uint32_t base, uint32_t* out) {
    const MatchTableEntry& entry = kMatchTable[mask8];
    __m256i cells = _mm256_load_si256(reinterpret_cast<const __m256i*>(entry.cells));
    __m256i positions = _mm256_add_epi32(_mm256_set1_epi32(static_cast<int>(base)),
                                         _mm256_srli_epi32(cells, kMatchTableCountBits));
    _mm256_storeu_si256(reinterpret_cast<__m256i*>(out), positions);
    return out + entry.count();
  }
};

// Figure 7(b): the table entry as a permutation moves the qualifying positions to the front.
uint32_t* permute_store(__m256i positions, uint32_t mask8, uint32_t* out) {
  const MatchTableEntry& entry = kMatchTable[mask8];
  __m256i cells = _mm256_load_si256(reinterpret_cast<const __m256i*>(entry.cells));
  __m256i kept =
      _mm256_permutevar8x32_epi32(positions, _mm256_srli_epi32(cells, kMatchTableCountBits));
  _mm256_storeu_si256(reinterpret_cast<__m256i*>(out), kept);
  return out + entry.count();
}

// Gathers are 32- and 64-bit only (section 4.2). For 8- and 16-bit values, gather the 4-byte
// aligned word holding each value (it never crosses a page), shift the value to the top of the
// lane and back down with zero or sign extension, and compare 32-bit lanes.
template <typename T>
__m256i gather_narrow(const T* values, __m256i indexes) {
  constexpr int kSpare = 32 - 8 * static_cast<int>(sizeof(T));
  auto address = reinterpret_cast<uintptr_t>(values);
  auto words = reinterpret_cast<const int*>(address & ~uintptr_t{3});
  __m256i bytes = _mm256_add_epi32(_mm256_slli_epi32(indexes, sizeof(T) / 2),
                                   _mm256_set1_epi32(static_cast<int>(address & 3)));
  __m256i gathered = _mm256_i32gather_epi32(words, _mm256_srli_epi32(bytes, 2), 4);
  __m256i byte_shift = _mm256_slli_epi32(_mm256_and_si256(bytes, _mm256_set1_epi32(3)), 3);
  __m256i top =
      _mm256_sllv_epi32(gathered, _mm256_sub_epi32(_mm256_set1_epi32(kSpare), byte_shift));
  if constexpr (std::is_signed_v<T>) return _mm256_srai_epi32(top, kSpare);
  return _mm256_srli_epi32(top, kSpare);
}

// 8- and 16-bit values compare as 32-bit lanes.
template <typename T>
using GatherLane = std::conditional_t<(sizeof(T) >= 4), T,
                                      std::conditional_t<std::is_signed_v<T>, int32_t, uint32_t>>;

// 8 positions: one 32-bit gather or two 4-lane 64-bit gathers.
template <typename T>
struct Avx2Gather {
  static constexpr uint32_t kBlock = 8;
  Avx2Gather(const T* values, T lo, T hi)
      : values_(values), compare_(static_cast<GatherLane<T>>(lo), static_cast<GatherLane<T>>(hi)) {}
  uint32_t* reduce(const uint32_t* positions, uint32_t* out) const {
    __m256i indexes = load(positions);
    uint32_t mask;
    if constexpr (sizeof(T) < 4) {
      mask = compare_.lane_bits(gather_narrow(values_, indexes));
    } else if constexpr (sizeof(T) == 4) {
      auto base = reinterpret_cast<const int*>(values_);
      mask = compare_.lane_bits(_mm256_i32gather_epi32(base, indexes, 4));
    } else {
      __m128i low = _mm256_castsi256_si128(indexes);
      __m128i high = _mm256_extracti128_si256(indexes, 1);
      if constexpr (std::is_same_v<T, double>) {
        mask = compare_.lane_bits(_mm256_i32gather_pd(values_, low, 8)) |
               compare_.lane_bits(_mm256_i32gather_pd(values_, high, 8)) << 4;
      } else {
        auto base = reinterpret_cast<const long long*>(values_);
        mask = compare_.lane_bits(_mm256_i32gather_epi64(base, low, 8)) |
               compare_.lane_bits(_mm256_i32gather_epi64(base, high, 8)) << 4;
      }
    }
    return permute_store(indexes, mask, out);
  }

 private:
  const T* values_;
  Avx2Compare<GatherLane<T>> compare_;
};

}  // namespace

constinit const KernelTable kAvx2Kernels = GatherLevel<Avx2Compare, Avx2Emit, Avx2Gather>::table();

}  // namespace floe::simd::detail

#pragma GCC diagnostic pop
#pragma GCC pop_options

#endif  // defined(__x86_64__)
