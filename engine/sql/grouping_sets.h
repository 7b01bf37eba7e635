// GROUP BY with GROUPING SETS, ROLLUP and CUBE: the list of grouping sets a clause means
// (PostgreSQL's flatten_grouping_sets and expand_grouping_sets, parse_clause.c / parse_agg.c).
#pragma once

#include <functional>
#include <vector>

#include "engine/sql/pg_node.h"

namespace floe::sql {

// A grouping set: indexes of grouping expressions (each once).
using GroupingSet = std::vector<size_t>;

// Binds a grouping expression and returns its index; equal expressions get one index.
using GroupingItemBinder = std::function<size_t(const Node*)>;

bool has_grouping_sets(const Node* const* items, size_t count);

// The grouping sets of GROUP BY items: the cross product of the items' sets, where a plain
// expression is one set of itself, ROLLUP (e1, ..., en) the n+1 prefixes, CUBE all 2^n
// subsets and GROUPING SETS (...) the union of its elements' sets; a parenthesized list
// inside them is one element, () the empty set.
std::vector<GroupingSet> expand_grouping_sets(const Node* const* items, size_t count,
                                              const GroupingItemBinder& bind);

}  // namespace floe::sql
