// Row-at-a-time TPC-H generators, byte-identical in content and order to dbgen 2.14.
// Each call generates rows [begin, end) (0-based) of one table and hands them to the sink;
// any range can be generated on its own, so ranges can run in parallel. Partsupp and
// lineitem rows are addressed by their parent: the range counts parts (four partsupp rows
// each) or orders (one to seven lineitem rows each).
#pragma once

#include <cstdint>
#include <functional>

#include "tpch/scale.h"
#include "tpch/tpch_rows.h"

namespace floe::tpch {

constexpr int64_t kRegionCount = 5;
constexpr int64_t kNationCount = 25;
constexpr int64_t kSuppliersPerPart = 4;

template <typename Row>
using RowSink = std::function<void(const Row&)>;

void generate_regions(int64_t begin, int64_t end, const RowSink<RegionRow>& sink);
void generate_nations(int64_t begin, int64_t end, const RowSink<NationRow>& sink);
void generate_suppliers(int64_t begin, int64_t end, const RowSink<SupplierRow>& sink);
void generate_customers(int64_t begin, int64_t end, const RowSink<CustomerRow>& sink);
// Parts [begin, end); either sink may be empty to skip that table.
void generate_parts(const Scale& scale, int64_t begin, int64_t end,
                    const RowSink<PartRow>& part_sink, const RowSink<PartSuppRow>& partsupp_sink);
// Orders [begin, end), each followed by its lineitems; either sink may be empty.
void generate_orders(const Scale& scale, int64_t begin, int64_t end,
                     const RowSink<OrderRow>& order_sink,
                     const RowSink<LineItemRow>& lineitem_sink);

// The supplier of a part's `index`-th (0..3) partsupp row (dbgen's PART_SUPP_BRIDGE).
int64_t part_supplier(const Scale& scale, int64_t partkey, int64_t index);
// The retail price of a part in cents.
int64_t part_retail_price(int64_t partkey);

}  // namespace floe::tpch
