// dbgen's .tbl line format: every field followed by '|', money with two decimals,
// dates as YYYY-MM-DD, one row per line.
#pragma once

#include <string>

#include "tpch/tpch_rows.h"

namespace floe::tpch {

void append_tbl_line(std::string& out, const RegionRow& row);
void append_tbl_line(std::string& out, const NationRow& row);
void append_tbl_line(std::string& out, const SupplierRow& row);
void append_tbl_line(std::string& out, const CustomerRow& row);
void append_tbl_line(std::string& out, const PartRow& row);
void append_tbl_line(std::string& out, const PartSuppRow& row);
void append_tbl_line(std::string& out, const OrderRow& row);
void append_tbl_line(std::string& out, const LineItemRow& row);

}  // namespace floe::tpch
