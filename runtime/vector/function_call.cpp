#include "runtime/vector/function_call.h"

#include <cstring>
#include <vector>

namespace floe::vectorized {

void write_slot(const Vector& vector, uint32_t position, FunctionSlot& slot) {
  const SqlType& type = vector.type();
  PhysicalType physical = type.physical();
  const uint8_t* in =
      vector.values<uint8_t>() + physical_size(physical) * static_cast<size_t>(position);
  if (type.id == TypeId::kDecimal) {
    int128_t value = physical == PhysicalType::kInt64
                         ? int128_t{*reinterpret_cast<const int64_t*>(in)}
                         : *reinterpret_cast<const int128_t*>(in);
    int32_t scale = type.scale;
    std::memcpy(slot.bytes, &value, sizeof value);
    std::memcpy(slot.bytes + kFunctionSlotScaleOffset, &scale, sizeof scale);
    return;
  }
  int64_t wide;
  switch (physical) {
    case PhysicalType::kInt16:
      wide = *reinterpret_cast<const int16_t*>(in);
      break;
    case PhysicalType::kInt32:
      wide = *reinterpret_cast<const int32_t*>(in);
      break;
    case PhysicalType::kInt64:
      wide = *reinterpret_cast<const int64_t*>(in);
      break;
    default:  // bool byte, double, interval, StringRef: as they are
      std::memcpy(slot.bytes, in, physical_size(physical));
      return;
  }
  std::memcpy(slot.bytes, &wide, sizeof wide);
}

void read_slot(const FunctionSlot& slot, Vector& vector, uint32_t position) {
  const SqlType& type = vector.type();
  PhysicalType physical = type.physical();
  uint8_t* out =
      vector.mutable_values<uint8_t>() + physical_size(physical) * static_cast<size_t>(position);
  int128_t wide = 0;
  switch (physical) {
    case PhysicalType::kBool:
      *out = slot.bytes[0] != 0;
      return;
    case PhysicalType::kInt16:
    case PhysicalType::kInt32:
    case PhysicalType::kInt64:
    case PhysicalType::kInt128:
      if (type.id == TypeId::kDecimal) {
        std::memcpy(&wide, slot.bytes, sizeof wide);
      } else {
        int64_t narrow;
        std::memcpy(&narrow, slot.bytes, sizeof narrow);
        wide = narrow;
      }
      if (physical == PhysicalType::kInt16) *reinterpret_cast<int16_t*>(out) = int16_t(wide);
      if (physical == PhysicalType::kInt32) *reinterpret_cast<int32_t*>(out) = int32_t(wide);
      if (physical == PhysicalType::kInt64) *reinterpret_cast<int64_t*>(out) = int64_t(wide);
      if (physical == PhysicalType::kInt128) *reinterpret_cast<int128_t*>(out) = wide;
      return;
    default:
      std::memcpy(out, slot.bytes, physical_size(physical));
  }
}

bool call_function(const FunctionOverload& function, WorkerContext& worker,
                   std::span<const Vector* const> arguments, Vector& result, const uint32_t* sel,
                   uint32_t n) {
  std::vector<FunctionSlot> slots(arguments.size() > 0 ? arguments.size() : 1);
  FunctionSlot out;
  for (uint32_t i = 0; i < n; ++i) {
    uint32_t p = sel ? sel[i] : i;
    for (size_t a = 0; a < arguments.size(); ++a) write_slot(*arguments[a], p, slots[a]);
    out.bytes[kFunctionSlotNullOffset] = 0;
    if (!function.thunk(&worker, slots.data(), &out)) return false;
    if (function.may_return_null && out.bytes[kFunctionSlotNullOffset]) {
      result.set_valid(p, false);
      continue;
    }
    read_slot(out, result, p);
  }
  return true;
}

}  // namespace floe::vectorized
