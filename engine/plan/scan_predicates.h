// What a table scan's pipeline evaluates itself, for both engines (codegen's scan source,
// the vectorized scan source): the scan's filters, and its restrictions unless the scanner
// applies them (PhysicalDescription::push_restrictions).
#pragma once

#include <vector>

#include "engine/plan/physical_description.h"

namespace floe::plan {

struct ScanPredicates {
  std::vector<const Expr*> evaluated;  // restrictions (when not pushed), then filters
  // The scanner's batches may come with a selection vector: it applies restrictions, or it
  // reads an index's rows.
  bool selects = false;
};

ScanPredicates scan_predicates(const ScanOp& scan, const PhysicalDescription& physical);

}  // namespace floe::plan
