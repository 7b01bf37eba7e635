// The TPC-H schema of tpch/schema.sql (the eight tables with their primary keys), compiled
// in so that CALL dbgen and the drivers need no source tree at run time.
#pragma once

#include <string_view>

namespace floe::tpch {

// CREATE TABLE statements for region, nation, part, supplier, partsupp, customer, orders
// and lineitem, in that order.
std::string_view schema_sql();

}  // namespace floe::tpch
