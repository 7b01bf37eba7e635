// Table cardinalities at a TPC-H scale factor, computed exactly as dbgen's "-s" option does.
#pragma once

#include <cstdint>

namespace floe::tpch {

struct Scale {
  int64_t suppliers;
  int64_t customers;
  int64_t parts;   // partsupp has four rows per part
  int64_t orders;  // lineitem has one to seven rows per order
  int64_t clerks;
};

// Scale factors below 1 scale the base cardinalities by (int)(1000 * sf) / 1000; larger
// ones are truncated to an integer. Throws floe::Error for sf <= 0 and floe::NotSupported
// from 30000 on, where dbgen switches keys to a 64-bit generator.
Scale make_scale(double scale_factor);

}  // namespace floe::tpch
