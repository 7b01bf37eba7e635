// runtime_abi.h: decimal operations that generated code does not inline. The arithmetic is
// storage/decimal.h's, which constant folding uses too; this file only adapts it to the ABI.
#include "runtime/abi_support.h"
#include "storage/decimal.h"

using floe::WorkerContext;

extern "C" {

bool floe_rt_decimal_rescale(WorkerContext* worker, __int128 value, uint32_t from_scale,
                             uint32_t to_precision, uint32_t to_scale, __int128* out) {
  std::optional<__int128> result = floe::rescale_decimal(value, from_scale, to_precision, to_scale);
  if (!result) {
    worker->query->fail(floe::kNumericOverflow);
    return false;
  }
  *out = *result;
  return true;
}

}  // extern "C"
