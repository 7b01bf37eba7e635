// The record-level session's engine values as the driver's Fields (floe_record_session.cpp;
// the SQL path converts the public API's values in floe_backend.cpp).
#pragma once

#include "bench/tpcc/tpcc_backend.h"
#include "storage/decimal.h"
#include "storage/value.h"

namespace floe::tpcc {

// A decimal as double, integers, doubles and strings as themselves, other types as text.
Field to_field(const Value& value);
// An integer column's value, or a decimal's (the unscaled integer of `type`) as a double.
Field numeric_field(int128_t integral, const SqlType& type);

}  // namespace floe::tpcc
