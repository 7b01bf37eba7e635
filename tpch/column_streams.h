// dbgen's per-column random streams: initial seeds and the number of draws each row of the
// column reserves (rnd.h). Because every row advances a stream by exactly its budget, the
// stream for any row can be reached directly by skipping ahead (speed_seed.c), which makes
// row ranges independent of each other.
#pragma once

#include <cstdint>

#include "tpch/random_stream.h"

namespace floe::tpch {

// Values are dbgen's stream numbers.
enum class ColumnStream : uint8_t {
  kPartMfgr = 0,
  kPartBrand = 1,
  kPartType = 2,
  kPartSize = 3,
  kPartContainer = 4,
  kTextPool = 5,
  kPartComment = 6,
  kPartSuppQuantity = 7,
  kPartSuppCost = 8,
  kPartSuppComment = 9,
  kOrderClerk = 11,
  kOrderComment = 12,
  kOrderDate = 13,
  kLineQuantity = 14,
  kLineDiscount = 15,
  kLineTax = 16,
  kLineInstruct = 17,
  kLineShipMode = 18,
  kLinePartKey = 19,
  kLineSuppNumber = 20,
  kLineShipDate = 21,
  kLineCommitDate = 22,
  kLineReceiptDate = 23,
  kLineReturnFlag = 24,
  kLineComment = 25,
  kCustomerAddress = 26,
  kCustomerNation = 27,
  kCustomerPhone = 28,
  kCustomerBalance = 29,
  kCustomerSegment = 30,
  kCustomerComment = 31,
  kSupplierAddress = 32,
  kSupplierNation = 33,
  kSupplierPhone = 34,
  kSupplierBalance = 35,
  kSupplierComment = 36,
  kPartName = 37,
  kOrderPriority = 38,
  kOrderCustKey = 40,
  kNationComment = 41,
  kRegionComment = 42,
  kOrderLineCount = 43,
  kSupplierRatingNoise = 44,
  kSupplierRatingType = 45,
  kSupplierRating = 46,
  kSupplierRatingOffset = 47,
};

// The stream positioned at the first draw of dbgen row `row` (1-based) of its table.
RandomStream column_stream(ColumnStream column, int64_t row);

}  // namespace floe::tpch
