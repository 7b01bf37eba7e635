// Stack depth checking, as PostgreSQL's check_stack_depth() (src/backend/tcop/postgres.c):
// the recursive walkers of the binder, optimizer and code generator call check_stack_depth()
// at each level, so that a deeply nested statement fails with PostgreSQL's "stack depth limit
// exceeded" instead of overflowing the thread's stack. The limit is the calling thread's own
// stack (found once per thread) minus a reserve for the work below the last check, so it
// adapts to threads with small stacks and to sanitizer builds with big frames.
#pragma once

#include <cstddef>

#include "storage/error.h"

namespace floe {

// PostgreSQL's "stack depth limit exceeded". Code that adds context to errors (such as the
// name of the view being bound) passes it on unchanged, or the context would repeat at
// every level.
class StackDepthExceeded : public Error {
 public:
  StackDepthExceeded() : Error("stack depth limit exceeded") {}
};

// Stack space the checks leave for unchecked work below them (library calls, LLVM, throwing
// the error itself). Sanitizers make every frame several times bigger.
#if defined(__SANITIZE_ADDRESS__)
constexpr size_t kStackReserve = size_t{2} << 20;
#else
constexpr size_t kStackReserve = size_t{512} << 10;
#endif

// Bytes of stack left below the caller's frame on the current thread.
size_t stack_remaining();

// Throws StackDepthExceeded when less than kStackReserve remains.
void check_stack_depth();

}  // namespace floe
