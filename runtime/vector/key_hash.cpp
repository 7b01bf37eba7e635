#include "runtime/vector/key_hash.h"

#include <type_traits>

#include "runtime/hash.h"
#include "runtime/vector/primitives.h"

namespace floe::vectorized {

void hash_key_column(const Vector& column, const uint32_t* sel, uint32_t n, uint64_t* hashes,
                     bool first) {
  visit_physical(column.physical(), [&](auto t) {
    using T = decltype(t);
    const T* values = column.values<T>();
    auto seed = [&](uint32_t p) { return first ? uint64_t{0} : hashes[p]; };
    if (column.all_valid()) {
      for_each_row(sel, n, [&](uint32_t p) { hashes[p] = hash_key_value(values[p], seed(p)); });
    } else if constexpr (std::is_same_v<T, StringRef>) {
      // A NULL string's reference may point anywhere: only present strings are read.
      for_each_row(sel, n, [&](uint32_t p) {
        hashes[p] =
            column.is_valid(p) ? hash_key_value(values[p], seed(p)) : hash_null_key(seed(p));
      });
    } else {
      // Fixed-size values are hashed on every row (a NULL row holds some bits of T), and the
      // NULL rows take the NULL hash by a select, without a branch.
      for_each_row(sel, n, [&](uint32_t p) {
        uint64_t chain = seed(p);
        uint64_t value_hash = hash_key_value(values[p], chain);
        hashes[p] = column.is_valid(p) ? value_hash : hash_null_key(chain);
      });
    }
  });
}

}  // namespace floe::vectorized
