// floe through SQL: every transaction statement is a prepared statement ($n parameters,
// Connection::prepare, once per connection); ad-hoc SQL goes through Connection::query. The
// only floe-specific file of the driver's SQL path.
#pragma once

#include <memory>

#include "bench/tpcc/tpcc_backend.h"

#include "storage/decimal.h"

namespace floe {
class Value;
struct SqlType;
}

namespace floe::tpcc {

std::unique_ptr<Backend> make_floe_sql_backend();
// The same database, its sessions on the record-level API (floe_record_session.h).
std::unique_ptr<Backend> make_floe_record_backend();

// A floe value as a Field (a decimal as double, other types as their text).
Field to_field(const Value& value);
// An integer column's value, or a decimal's (the unscaled integer of `type`) as a double.
Field numeric_field(int128_t integral, const SqlType& type);

}  // namespace floe::tpcc
