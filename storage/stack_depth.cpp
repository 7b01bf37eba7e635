#include "storage/stack_depth.h"

#include <pthread.h>

#include <cstdint>

namespace floe {

namespace {

// The lowest usable address of the current thread's stack (stacks grow down on every
// platform floe runs on); 0 when it cannot be found, which turns the checks off.
uintptr_t stack_low_end() {
  pthread_attr_t attributes;
  if (pthread_getattr_np(pthread_self(), &attributes) != 0) return 0;
  void* address = nullptr;
  size_t size = 0;
  int failed = pthread_attr_getstack(&attributes, &address, &size);
  pthread_attr_destroy(&attributes);
  return failed ? 0 : reinterpret_cast<uintptr_t>(address);
}

}  // namespace

size_t stack_remaining() {
  thread_local const uintptr_t low_end = stack_low_end();
  // The frame address, not a local's: under AddressSanitizer locals may live on a fake stack.
  auto here = reinterpret_cast<uintptr_t>(__builtin_frame_address(0));
  if (low_end == 0) return SIZE_MAX;
  return here > low_end ? here - low_end : 0;
}

void check_stack_depth() {
  if (stack_remaining() < kStackReserve) throw StackDepthExceeded();
}

}  // namespace floe
