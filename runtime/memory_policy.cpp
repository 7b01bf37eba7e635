#include "runtime/memory_policy.h"

#include <malloc.h>

#include <climits>

namespace floe {

void keep_freed_memory_for_reuse() {
  // Serve large blocks from the heap, never from mmap, and trim the heap's top only when
  // more than 2 GiB of it is free.
  mallopt(M_MMAP_MAX, 0);
  mallopt(M_TRIM_THRESHOLD, INT_MAX);
}

}  // namespace floe
