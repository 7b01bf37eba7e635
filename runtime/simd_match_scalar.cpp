// Scalar match kernels: the branch-free loops of runtime/simd_match_scalar.h. Portable; the
// only level on machines other than x86-64.
#include "runtime/simd_match_scalar.h"
#include "runtime/simd_match_kernels.h"

namespace floe::simd::detail {
namespace {

uint32_t find_bits(const uint64_t* bitmap, uint32_t offset, uint32_t begin, uint32_t end, bool want,
                   uint32_t* out) {
  return static_cast<uint32_t>(scalar_find_bits(bitmap, offset, begin, end, want, out) - out);
}

}  // namespace

constinit const KernelTable kScalarKernels{AllMatchKernels::of<ScalarKernel>(), &find_bits};

}  // namespace floe::simd::detail
