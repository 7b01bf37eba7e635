#include "runtime/parameter_slot.h"

#include <cstring>

namespace floe {

std::vector<ParameterSlot> parameter_slots(const std::vector<Value>& values) {
  std::vector<ParameterSlot> slots(values.size());
  for (size_t i = 0; i < values.size(); ++i) {
    std::memset(&slots[i], 0, sizeof(ParameterSlot));
    slots[i].is_null = values[i].is_null();
    if (!values[i].is_null()) values[i].write_physical(slots[i].value);
  }
  return slots;
}

}  // namespace floe
