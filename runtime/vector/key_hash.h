// Vectorized key hashing (X100 thesis §5.3: the hash step of the vectorized hash join and
// aggregation). Bit-identical to generated code's hash of the same keys (runtime/hash.h,
// codegen/key_codegen.cpp), so both engines' rows meet in one hash table.
#pragma once

#include <cstdint>

#include "runtime/vector/vector.h"

namespace floe::vectorized {

// Chains the key column `column` onto hashes[p] for the rows sel[0..n) (positions; null:
// 0..n): hashes[p] = hash_key_value(value, hashes[p]), or hash_null_key(hashes[p]) for a
// NULL. With `first`, the chain starts at 0 (the first key column) and hashes[p] is only
// written. Call it once per key column, in key order.
void hash_key_column(const Vector& column, const uint32_t* sel, uint32_t n, uint64_t* hashes,
                     bool first);

}  // namespace floe::vectorized
