// The predicate a record-level index range scan reads (engine/api/record_transaction.h), as
// the scan restrictions a serializable transaction logs (runtime/predicate_log.h; Neumann,
// Mühlbauer & Kemper, SIGMOD 2015, §3.1 precision locking), so that validation covers the
// record path like SQL scans.
#pragma once

#include <optional>
#include <vector>

#include "runtime/scan_restriction.h"
#include "storage/unique_index.h"

namespace floe {

// Restrictions on the key columns that hold for every row whose key lies between `low` and
// `high` (typed bounds on key prefixes; absent: unbounded): equality on the leading parts
// both bounds share, then a range on the next part. Keys compare lexicographically, so later
// parts are left unrestricted: the predicate covers at least the rows the scan reads. No
// bound at all: no restriction (the whole table).
std::vector<ScanRestriction> index_range_predicate(const UniqueIndex& index,
                                                   const std::optional<IndexBound>& low,
                                                   const std::optional<IndexBound>& high);

}  // namespace floe
