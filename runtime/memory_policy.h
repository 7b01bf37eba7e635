// How the process's allocator should treat the large, short-lived buffers queries allocate
// (hash-table directories and entries, aggregation arenas, sort rows).
#pragma once

namespace floe {

// Keeps freed memory in the process for the next query instead of returning it to the
// kernel. With glibc's defaults every large buffer is a fresh mmap whose pages the kernel
// zero-fills in page faults, which serialize across threads: at TPC-H SF 1 that made q09
// 2.3x slower and held back 1 -> 2 thread scaling (bench/RESULTS.md). This changes a
// process-wide setting, so applications opt in: floe's own programs (the shell, the
// benchmark drivers) call it first thing; an application embedding floe may too.
void keep_freed_memory_for_reuse();

}  // namespace floe
