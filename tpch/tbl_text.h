// The text of dbgen's eight .tbl files, generated in parallel chunks and delivered in order.
#pragma once

#include <functional>
#include <string_view>

namespace floe::tpch {

// Receives the next piece of a table's file; called serially, the pieces of each table in
// file order, the tables in the order region, nation, supplier, customer, part, partsupp,
// orders, lineitem (part/partsupp and orders/lineitem pieces interleave).
using TblConsumer = std::function<void(std::string_view table, std::string_view text)>;

// `threads` = 0 uses all cores. Throws floe::Error for an invalid scale factor.
void generate_tbl_text(double scale_factor, int threads, const TblConsumer& consume);

}  // namespace floe::tpch
