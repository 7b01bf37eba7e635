// floe through SQL text: every statement goes through Connection::query with its parameters
// written into the text as literals. The only floe-specific file of the driver, so that it
// can switch to prepared statements ($n) when they exist.
#pragma once

#include <memory>

#include "bench/tpcc/tpcc_backend.h"

namespace floe::tpcc {

std::unique_ptr<Backend> make_floe_sql_backend();

}  // namespace floe::tpcc
