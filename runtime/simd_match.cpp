// Run-time choice of the match kernels (runtime/simd_match.h): one kernel table per level,
// the active one selected from the CPU on first use or by set_isa().
#include "runtime/simd_match.h"

#include <atomic>
#include <string>

#include "runtime/simd_match_kernels.h"
#include "runtime/simd_match_scalar.h"
#include "storage/error.h"

namespace floe::simd {
namespace {

using detail::KernelTable;

// Null where the level does not exist on this architecture.
const KernelTable* table_of(Isa isa) {
  switch (isa) {
    case Isa::kScalar:
      return &detail::kScalarKernels;
#if defined(__x86_64__)
    case Isa::kSse42:
      return &detail::kSse42Kernels;
    case Isa::kAvx2:
      return &detail::kAvx2Kernels;
    case Isa::kAvx512:
      return &detail::kAvx512Kernels;
#else
    default:
      break;
#endif
  }
  return nullptr;
}

Isa detect_isa() {
#if defined(__x86_64__)
  __builtin_cpu_init();
  if (__builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512bw") &&
      __builtin_cpu_supports("avx512vl") && __builtin_cpu_supports("popcnt")) {
    return Isa::kAvx512;
  }
  if (__builtin_cpu_supports("avx2")) return Isa::kAvx2;
  if (__builtin_cpu_supports("sse4.2")) return Isa::kSse42;
#endif
  return Isa::kScalar;
}

// Constant-initialized, so kernels may run during static initialization of other files.
std::atomic<const KernelTable*> active_table{nullptr};
std::atomic<Isa> active_level{Isa::kScalar};

const KernelTable& kernels() {
  const KernelTable* table = active_table.load(std::memory_order_acquire);
  if (table == nullptr) [[unlikely]] {
    Isa best = best_isa();
    // Racing first calls all store the same values.
    active_level.store(best, std::memory_order_relaxed);
    table = table_of(best);
    active_table.store(table, std::memory_order_release);
  }
  return *table;
}

}  // namespace

const char* isa_name(Isa isa) {
  switch (isa) {
    case Isa::kScalar:
      return "scalar";
    case Isa::kSse42:
      return "sse4.2";
    case Isa::kAvx2:
      return "avx2";
    case Isa::kAvx512:
      return "avx512";
  }
  return "unknown";
}

Isa best_isa() {
  static const Isa best = detect_isa();
  return best;
}

Isa active_isa() {
  kernels();
  return active_level.load(std::memory_order_relaxed);
}

void set_isa(Isa isa) {
  Isa best = best_isa();
  if (isa > best || table_of(isa) == nullptr) {
    throw Error(std::string("this CPU cannot run the ") + isa_name(isa) +
                " match kernels (best level: " + isa_name(best) + ")");
  }
  active_level.store(isa, std::memory_order_relaxed);
  active_table.store(table_of(isa), std::memory_order_release);
}

template <MatchElement T>
uint32_t find_matches(const T* values, uint32_t begin, uint32_t end, T lo, T hi, uint32_t* out) {
  // The SIMD kernels need lo <= hi; !(lo <= hi) also catches NaN bounds.
  if (begin >= end || !(lo <= hi)) return 0;
  return kernels().get<T>().find(values, begin, end, lo, hi, out);
}

template <MatchElement T>
uint32_t reduce_matches(const T* values, const uint32_t* positions, uint32_t count, T lo, T hi,
                        uint32_t* out) {
  if (count == 0 || !(lo <= hi)) return 0;
  return kernels().get<T>().reduce(values, positions, count, lo, hi, out);
}

#define FLOE_SIMD_INSTANTIATE(T)                                                    \
  template uint32_t find_matches<T>(const T*, uint32_t, uint32_t, T, T, uint32_t*); \
  template uint32_t reduce_matches<T>(const T*, const uint32_t*, uint32_t, T, T, uint32_t*);
FLOE_SIMD_INSTANTIATE(uint8_t)
FLOE_SIMD_INSTANTIATE(uint16_t)
FLOE_SIMD_INSTANTIATE(uint32_t)
FLOE_SIMD_INSTANTIATE(uint64_t)
FLOE_SIMD_INSTANTIATE(int16_t)
FLOE_SIMD_INSTANTIATE(int32_t)
FLOE_SIMD_INSTANTIATE(int64_t)
FLOE_SIMD_INSTANTIATE(double)
#undef FLOE_SIMD_INSTANTIATE

uint32_t select_valid(const uint64_t* validity_bitmap, uint32_t bitmap_offset,
                      const uint32_t* positions, uint32_t count, uint32_t* out) {
  uint32_t* cursor = out;
  for (uint32_t i = 0; i < count; ++i) {
    uint32_t position = positions[i];
    *cursor = position;
    cursor += detail::validity_bit(validity_bitmap, bitmap_offset, position);
  }
  return static_cast<uint32_t>(cursor - out);
}

uint32_t find_valid(const uint64_t* validity_bitmap, uint32_t bitmap_offset, uint32_t begin,
                    uint32_t end, uint32_t* out) {
  if (begin >= end) return 0;
  return kernels().find_bits(validity_bitmap, bitmap_offset, begin, end, true, out);
}

uint32_t find_null(const uint64_t* validity_bitmap, uint32_t bitmap_offset, uint32_t begin,
                   uint32_t end, uint32_t* out) {
  if (begin >= end) return 0;
  return kernels().find_bits(validity_bitmap, bitmap_offset, begin, end, false, out);
}

}  // namespace floe::simd
