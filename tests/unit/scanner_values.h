// Test support: every value a TableScanner hands out for its first requested column, a
// bigint, in scan order (selection vectors applied). The scanner must be open.
#pragma once

#include <cstdint>
#include <vector>

#include "runtime/table_scanner.h"

namespace floe::test {

inline std::vector<int64_t> drain_bigint_column(TableScanner& scanner) {
  std::vector<int64_t> values;
  FloeScanBatch batch;
  while (uint32_t count = scanner.next(batch)) {
    const auto* data = static_cast<const int64_t*>(batch.columns[0]);
    for (uint32_t i = 0; i < count; ++i)
      values.push_back(data[batch.selection ? batch.selection[i] : i]);
  }
  return values;
}

}  // namespace floe::test
