// One generated row per TPC-H table. Money is in cents, dates are floe DATE values (days
// since 1970-01-01). String views point into generator buffers, the text pool or the
// distributions: they are valid only during the sink call that receives the row.
#pragma once

#include <cstdint>
#include <string_view>

namespace floe::tpch {

struct RegionRow {
  int64_t regionkey;
  std::string_view name;
  std::string_view comment;
};

struct NationRow {
  int64_t nationkey;
  std::string_view name;
  int64_t regionkey;
  std::string_view comment;
};

struct SupplierRow {
  int64_t suppkey;
  std::string_view name;
  std::string_view address;
  int64_t nationkey;
  std::string_view phone;
  int64_t acctbal;
  std::string_view comment;
};

struct CustomerRow {
  int64_t custkey;
  std::string_view name;
  std::string_view address;
  int64_t nationkey;
  std::string_view phone;
  int64_t acctbal;
  std::string_view mktsegment;
  std::string_view comment;
};

struct PartRow {
  int64_t partkey;
  std::string_view name;
  std::string_view mfgr;
  std::string_view brand;
  std::string_view type;
  int64_t size;
  std::string_view container;
  int64_t retailprice;
  std::string_view comment;
};

struct PartSuppRow {
  int64_t partkey;
  int64_t suppkey;
  int64_t availqty;
  int64_t supplycost;
  std::string_view comment;
};

struct OrderRow {
  int64_t orderkey;
  int64_t custkey;
  char orderstatus;
  int64_t totalprice;
  int32_t orderdate;
  std::string_view orderpriority;
  std::string_view clerk;
  int64_t shippriority;
  std::string_view comment;
};

struct LineItemRow {
  int64_t orderkey;
  int64_t partkey;
  int64_t suppkey;
  int64_t linenumber;
  int64_t quantity;
  int64_t extendedprice;
  int64_t discount;  // hundredths, like money
  int64_t tax;       // hundredths, like money
  char returnflag;
  char linestatus;
  int32_t shipdate;
  int32_t commitdate;
  int32_t receiptdate;
  std::string_view shipinstruct;
  std::string_view shipmode;
  std::string_view comment;
};

}  // namespace floe::tpch
