// The values of a prepared statement's $n parameters as generated code reads them: one slot
// per parameter, its physical value (PhysicalType of the parameter's type) and a NULL flag.
// The code is compiled once against the slots' layout and reads the values of each run
// through WorkerContext::parameters, so that no value is folded into the machine code.
#pragma once

#include <cstdint>
#include <vector>

#include "storage/value.h"

namespace floe {

struct ParameterSlot {
  alignas(16) uint8_t value[16];  // an i128, an Interval or a StringRef fits
  uint8_t is_null;
};

// The slots of `values` (each already of its parameter's type). A string slot points into
// its Value, so `values` must outlive the slots.
std::vector<ParameterSlot> parameter_slots(const std::vector<Value>& values);

}  // namespace floe
