// The inputs of the aggregates that need all of them: string_agg, percentile_cont,
// percentile_disc and mode (codegen/aggregate_states.h). A group row holds a CollectedList.
// Its items live in the worker's string heap as long as the query's strings do (the strings
// they hold point there or into the tables), so nothing is freed per group, and the merge of
// two workers' groups links their lists in O(1). The final functions order the items, as
// PostgreSQL sorts an ordered aggregate's input, and compute the result.
#pragma once

#include <cstdint>

#include "storage/string_heap.h"
#include "storage/string_ref.h"
#include "storage/types.h"

namespace floe {

struct CollectedItem;

struct CollectedList {
  CollectedItem* head = nullptr;
  CollectedItem* tail = nullptr;
};

// How the items are ordered: by their key of `key_type` (string_agg's ORDER BY, the WITHIN
// GROUP argument), or in no particular order without a key. `distinct`: string_agg(DISTINCT)
// keeps one of equal (key = value, delimiter) items.
struct CollectedOrder {
  bool has_key = false;
  PhysicalType key_type = PhysicalType::kInt64;
  bool descending = false;
  bool nulls_first = false;
  bool distinct = false;
};

// Appends an item; key (of key_type), value and delimiter (strings) are 16-byte slots
// holding a physical value (key may be null for a NULL key; value and delimiter may be null
// when unused). Strings are copied to `heap`: a scan's strings may live in a batch buffer.
void collect(StringHeap& heap, CollectedList& list, PhysicalType key_type, const void* key,
             const void* value, const void* delimiter);
// Moves `from`'s items to the end of `into`.
void append(CollectedList& into, CollectedList& from);

// string_agg: the string values in order, each but the first preceded by its delimiter.
StringRef string_agg(const CollectedList& list, const CollectedOrder& order, StringHeap& heap);
// percentile_cont over double keys: linear interpolation between the values at positions
// floor and ceil of fraction·(n−1) (PostgreSQL's percentile_cont_final). Non-empty list.
double percentile_cont(const CollectedList& list, const CollectedOrder& order, double fraction);
// percentile_disc: the first key whose position reaches fraction·n; mode: the most frequent
// key, the first in order among equally frequent ones. Write the key's 16-byte slot to `out`.
// Non-empty list.
void percentile_disc(const CollectedList& list, const CollectedOrder& order, double fraction,
                     void* out);
void mode(const CollectedList& list, const CollectedOrder& order, void* out);
// Throws floe::Error "percentile value 1.5 is not between 0 and 1" unless 0 <= fraction <= 1.
void check_fraction(double fraction);

}  // namespace floe
