// Restrictions and index scans that compare a column with a prepared statement's $n
// (column = $1, column < $2, ...). The planner extracts them like comparisons with constants
// (scan_restrictions.cpp), with a placeholder for the value, and assumes an index lookup on
// them is selective (index_selection.cpp), as PostgreSQL's generic plans do. Each run of the
// compiled query fills the values in from its parameters before the scans start, the way
// PostgreSQL's executor computes an index scan's run-time keys; the generated code is the
// same for every run.
#pragma once

#include <vector>

#include "engine/plan/logical_plan.h"
#include "engine/plan/physical_description.h"

namespace floe::plan {

// Whether a restriction's bounds come from parameters.
bool has_parameters(const ScanRestriction& restriction);

// `restriction` with its parameter bounds filled in from `parameters` (values of the
// parameter types) for a column of type `column_type`; nullopt when one of them is NULL
// (then no row passes: a comparison with NULL is never true).
std::optional<ScanRestriction> with_parameters(const ScanRestriction& restriction,
                                               const SqlType& column_type,
                                               const std::vector<Value>& parameters);

// A scan slot (StateSlot::Kind::kScanCursors) made ready for one run: its restrictions and
// its index lookup's key ranges take the parameters' values.
void bind_scan_parameters(StateSlot& slot, const std::vector<Value>& parameters);

}  // namespace floe::plan
