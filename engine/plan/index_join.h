// Index nested-loop joins in the physical description (the rule: index_join.cpp): the probe
// scan's slot learns which join table gives its keys and where they sit in its rows.
#pragma once

#include "engine/plan/physical_description.h"

namespace floe::plan {

// Fills StateSlot::index_join and index_join_table of every index nested-loop join's scan
// under `root`; the joins' slots and materializations must be described.
void describe_index_joins(const LogicalOp& root, PhysicalDescription& out);

}  // namespace floe::plan
