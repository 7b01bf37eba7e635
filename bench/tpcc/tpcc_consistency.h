// Consistency conditions 1-4 of clause 3.3.2, checked in SQL after a run.
#pragma once

#include <array>
#include <cstdint>

#include "bench/tpcc/tpcc_backend.h"

namespace floe::tpcc {

struct ConsistencyResult {
  // Per condition: the warehouses (1) or districts (2-4) that violate it.
  std::array<int64_t, 4> violations{};
  bool ok() const { return violations == std::array<int64_t, 4>{}; }
};

ConsistencyResult check_consistency(Session& session);

}  // namespace floe::tpcc
