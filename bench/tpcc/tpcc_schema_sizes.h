// The cardinalities of clause 1.2 / 4.3.3.1. Tests use a smaller Scale; the benchmark uses
// the specification's.
#pragma once

#include <cstdint>

namespace floe::tpcc {

inline constexpr int64_t kDistrictsPerWarehouse = 10;

struct Scale {
  int64_t items = 100000;
  int64_t customers_per_district = 3000;  // also the orders per district
  // Orders from here on (2101 of 3000: the last 900) are undelivered: rows of NEW-ORDER.
  int64_t first_new_order() const { return customers_per_district * 7 / 10 + 1; }
};

}  // namespace floe::tpcc
