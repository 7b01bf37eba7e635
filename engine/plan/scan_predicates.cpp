#include "engine/plan/scan_predicates.h"

namespace floe::plan {

ScanPredicates scan_predicates(const ScanOp& scan, const PhysicalDescription& physical) {
  ScanPredicates predicates;
  const bool pushed = physical.push_restrictions;
  predicates.selects = (pushed && !scan.restrictions.empty()) || scan.index || scan.index_join;
  if (!pushed) {
    for (const auto& restriction : scan.restrictions)
      predicates.evaluated.push_back(restriction.predicate.get());
  }
  for (const auto& filter : scan.filters) predicates.evaluated.push_back(filter.get());
  return predicates;
}

}  // namespace floe::plan
