// floe's values as the driver's Fields, for both floe sessions: SQL results (api::Value) and
// the record path's lean reads (api::RecordValue).
#pragma once

#include "bench/tpcc/tpcc_backend.h"
#include "engine/api/floe.h"

namespace floe::tpcc {

// Integers and strings as themselves, numerics and doubles as double, other types as text.
Field to_field(const api::Value& value);
Field to_field(const api::RecordValue& value);
// A numeric's unscaled integer with `scale` digits after the point, as double.
Field numeric_field(int64_t unscaled, int scale);

}  // namespace floe::tpcc
