// AVX-512 match kernels (AVX-512 F, BW, VL): 512-bit compares straight into mask registers,
// positions written with compress. Reducing gathers 16 values (8 for 64-bit types) and
// compresses the qualifying positions (section 4.2's "reduce matches", with compress in place
// of the table permutation). Compression goes to a register and then through an ordinary
// store: the compress-to-memory form is microcoded and slow on AMD Zen 4.
#include "runtime/simd_match_kernels.h"

#if defined(__x86_64__)

#include <immintrin.h>

#include <cstdint>
#include <type_traits>

#include "runtime/simd_match_scalar.h"
#include "runtime/simd_match_table.h"

#pragma GCC push_options
#pragma GCC target("avx512f,avx512bw,avx512vl,popcnt")
// GCC 12 reports the _mm*_undefined_*() pass-through operands of shifts and gathers as
// uninitialized (GCC bug 105593).
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wmaybe-uninitialized"

#include "runtime/simd_match_loop.h"

namespace floe::simd::detail {
namespace {

__m512i load(const void* p) {
  return _mm512_loadu_si512(p);
}

template <typename T>
__m512i splat(T value) {
  if constexpr (sizeof(T) == 1) return _mm512_set1_epi8(static_cast<char>(value));
  if constexpr (sizeof(T) == 2) return _mm512_set1_epi16(static_cast<short>(value));
  if constexpr (sizeof(T) == 4) return _mm512_set1_epi32(static_cast<int>(value));
  if constexpr (sizeof(T) == 8) return _mm512_set1_epi64(static_cast<long long>(value));
}

// Integers: see unsigned_range() (runtime/simd_match_loop.h); one subtraction and one
// unsigned compare into a mask register per 64 bytes.
// 64-bit lanes take two registers per block, so that every block fills a 16-position emit.
template <typename T>
struct Avx512Compare {
  static constexpr uint32_t kBlock = sizeof(T) == 8 ? 16 : 64 / sizeof(T);
  Avx512Compare(T lo, T hi) : lo_(splat(lo)), range_(splat(unsigned_range(lo, hi))) {}
  uint64_t mask(const T* p) const {
    if constexpr (sizeof(T) == 8) return lane_bits(load(p)) | lane_bits(load(p + 8)) << 8;
    return lane_bits(load(p));
  }
  uint64_t lane_bits(__m512i values) const {
    if constexpr (sizeof(T) == 1)
      return _mm512_cmple_epu8_mask(_mm512_sub_epi8(values, lo_), range_);
    if constexpr (sizeof(T) == 2)
      return _mm512_cmple_epu16_mask(_mm512_sub_epi16(values, lo_), range_);
    if constexpr (sizeof(T) == 4)
      return _mm512_cmple_epu32_mask(_mm512_sub_epi32(values, lo_), range_);
    if constexpr (sizeof(T) == 8)
      return _mm512_cmple_epu64_mask(_mm512_sub_epi64(values, lo_), range_);
  }

 private:
  __m512i lo_, range_;
};

// Ordered, quiet comparisons: NaN lanes never match.
template <>
struct Avx512Compare<double> {
  static constexpr uint32_t kBlock = 16;
  Avx512Compare(double lo, double hi) : lo_(_mm512_set1_pd(lo)), hi_(_mm512_set1_pd(hi)) {}
  uint64_t mask(const double* p) const {
    return lane_bits(_mm512_loadu_pd(p)) | lane_bits(_mm512_loadu_pd(p + 8)) << 8;
  }
  uint64_t lane_bits(__m512d values) const {
    return _mm512_mask_cmp_pd_mask(_mm512_cmp_pd_mask(values, lo_, _CMP_GE_OQ), values, hi_,
                                   _CMP_LE_OQ);
  }

 private:
  __m512d lo_, hi_;
};

// Finding matches compresses 16 positions at a time instead of looking up the position table
// (appendix C) 8 at a time: on AMD Zen 4 that is 1.2x (8-bit codes) to 2x (32-bit values)
// faster (bench/RESULTS.md, "Data Blocks: SIMD find/reduce matches").
struct Avx512Emit {
  static constexpr uint32_t kWidth = 16;
  static uint32_t* emit(uint32_t mask16, uint32_t base, uint32_t* out) {
    const __m512i lanes = _mm512_set_epi32(15, 14, 13, 12, 11, 10, 9, 8, 7, 6, 5, 4, 3, 2, 1, 0);
    __m512i positions = _mm512_add_epi32(_mm512_set1_epi32(static_cast<int>(base)), lanes);
    _mm512_storeu_si512(out,
                        _mm512_maskz_compress_epi32(static_cast<__mmask16>(mask16), positions));
    return out + __builtin_popcount(mask16);
  }
};

template <typename T>
struct Avx512Gather;

// 16 positions: one 32-bit gather. For 8- and 16-bit values it fetches the 4-byte aligned
// word holding the value (it never crosses a page) and extracts the value with two shifts.
template <typename T>
requires(std::is_integral_v<T> && sizeof(T) <= 4) struct Avx512Gather<T> {
  static constexpr uint32_t kBlock = 16;
  static constexpr int kSpare = 32 - 8 * static_cast<int>(sizeof(T));
  using Wide = std::conditional_t<std::is_signed_v<T>, int32_t, uint32_t>;
  Avx512Gather(const T* values, T lo, T hi)
      : words_(reinterpret_cast<const void*>(reinterpret_cast<uintptr_t>(values) & ~uintptr_t{3})),
        misalignment_(_mm512_set1_epi32(static_cast<int>(reinterpret_cast<uintptr_t>(values) & 3))),
        compare_(static_cast<Wide>(lo), static_cast<Wide>(hi)) {}
  uint32_t* reduce(const uint32_t* positions, uint32_t* out) const {
    __m512i indexes = load(positions);
    __m512i values;
    if constexpr (sizeof(T) == 4) {
      values = _mm512_i32gather_epi32(indexes, words_, 4);
    } else {
      __m512i bytes = _mm512_add_epi32(_mm512_slli_epi32(indexes, sizeof(T) / 2), misalignment_);
      __m512i words = _mm512_i32gather_epi32(_mm512_srli_epi32(bytes, 2), words_, 4);
      __m512i shift =
          _mm512_sub_epi32(_mm512_set1_epi32(kSpare),
                           _mm512_slli_epi32(_mm512_and_si512(bytes, _mm512_set1_epi32(3)), 3));
      __m512i top = _mm512_sllv_epi32(words, shift);
      if constexpr (std::is_signed_v<T>) {
        values = _mm512_srai_epi32(top, kSpare);
      } else {
        values = _mm512_srli_epi32(top, kSpare);
      }
    }
    auto mask = static_cast<__mmask16>(compare_.lane_bits(values));
    _mm512_storeu_si512(out, _mm512_maskz_compress_epi32(mask, indexes));
    return out + __builtin_popcount(mask);
  }

 private:
  const void* words_;
  __m512i misalignment_;
  Avx512Compare<Wide> compare_;
};

// 8 positions: one 64-bit gather.
template <typename T>
requires(sizeof(T) == 8) struct Avx512Gather<T> {
  static constexpr uint32_t kBlock = 8;
  Avx512Gather(const T* values, T lo, T hi) : values_(values), compare_(lo, hi) {}
  uint32_t* reduce(const uint32_t* positions, uint32_t* out) const {
    __m256i indexes = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(positions));
    __mmask8 mask;
    if constexpr (std::is_same_v<T, double>) {
      mask = static_cast<__mmask8>(compare_.lane_bits(_mm512_i32gather_pd(indexes, values_, 8)));
    } else {
      mask = static_cast<__mmask8>(compare_.lane_bits(_mm512_i32gather_epi64(indexes, values_, 8)));
    }
    _mm256_storeu_si256(reinterpret_cast<__m256i*>(out),
                        _mm256_maskz_compress_epi32(mask, indexes));
    return out + __builtin_popcount(mask);
  }

 private:
  const T* values_;
  Avx512Compare<T> compare_;
};

}  // namespace

constinit const KernelTable kAvx512Kernels =
    GatherLevel<Avx512Compare, Avx512Emit, Avx512Gather>::table();

}  // namespace floe::simd::detail

#pragma GCC diagnostic pop
#pragma GCC pop_options

#endif  // defined(__x86_64__)
