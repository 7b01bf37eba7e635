#include "runtime/cancellation.h"

#include "storage/error.h"

namespace floe {

void throw_if_canceled(const std::atomic<bool>* flag) {
  if (flag && flag->load(std::memory_order_relaxed)) throw Error(kCanceledMessage);
}

}  // namespace floe
