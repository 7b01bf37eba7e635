// floe through SQL: every transaction statement is a prepared statement ($n parameters,
// Connection::prepare, once per connection); ad-hoc SQL goes through Connection::query. The
// only floe-specific file of the driver's SQL path, on the public API (engine/api/floe.h).
#pragma once

#include <memory>

#include "bench/tpcc/tpcc_backend.h"

namespace floe::tpcc {

std::unique_ptr<Backend> make_floe_sql_backend();
// The same database, its sessions on the record-level API (floe_record_session.h).
std::unique_ptr<Backend> make_floe_record_backend();

}  // namespace floe::tpcc
