// Internal to the match finders (runtime/simd_match.h): one table of kernel pointers per
// instruction set level, filled in by runtime/simd_match_{scalar,sse42,avx2,avx512}.cpp and
// picked at run time by runtime/simd_match.cpp.
#pragma once

#include <cstdint>
#include <tuple>

#include "runtime/simd_match.h"

namespace floe::simd::detail {

template <typename T>
struct MatchKernels {
  uint32_t (*find)(const T* values, uint32_t begin, uint32_t end, T lo, T hi, uint32_t* out);
  uint32_t (*reduce)(const T* values, const uint32_t* positions, uint32_t count, T lo, T hi,
                     uint32_t* out);
};

// Rows p in [begin, end) whose validity bit (p + offset) equals `want` (1 = valid, 0 = NULL).
using FindBitsFn = uint32_t (*)(const uint64_t* bitmap, uint32_t offset, uint32_t begin,
                                uint32_t end, bool want, uint32_t* out);

template <typename... Ts>
struct MatchKernelSet {
  std::tuple<MatchKernels<Ts>...> kernels;

  // The set of a level whose kernels are Kernel<T>::find and Kernel<T>::reduce.
  template <template <typename> class Kernel>
  static constexpr MatchKernelSet of() {
    return {{MatchKernels<Ts>{&Kernel<Ts>::find, &Kernel<Ts>::reduce}...}};
  }
};
using AllMatchKernels =
    MatchKernelSet<uint8_t, uint16_t, uint32_t, uint64_t, int16_t, int32_t, int64_t, double>;

struct KernelTable {
  AllMatchKernels match;
  FindBitsFn find_bits;

  template <typename T>
  const MatchKernels<T>& get() const {
    return std::get<MatchKernels<T>>(match.kernels);
  }
};

extern const KernelTable kScalarKernels;
#if defined(__x86_64__)
extern const KernelTable kSse42Kernels;
extern const KernelTable kAvx2Kernels;
extern const KernelTable kAvx512Kernels;
#endif

}  // namespace floe::simd::detail
