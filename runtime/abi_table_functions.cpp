// runtime_abi.h: set-returning functions in FROM (runtime/table_function.h).
#include <exception>

#include "runtime/runtime_abi.h"
#include "runtime/table_function.h"

extern "C" {

floe::TableFunctionCursor* floe_rt_table_function_open(floe::WorkerContext* worker,
                                                       const floe::TableFunction* function,
                                                       void* storage,
                                                       const floe::FunctionSlot* arguments) {
  try {
    return function->open(storage, {arguments, function->parameters.size()});
  } catch (const std::exception& e) {
    worker->query->fail(e.what());
    return nullptr;
  }
}

int32_t floe_rt_table_function_next(floe::WorkerContext* worker, floe::TableFunctionCursor* cursor,
                                    floe::FunctionSlot* value) {
  try {
    return cursor->next(*worker->strings, *value) ? 1 : 0;
  } catch (const std::exception& e) {
    worker->query->fail(e.what());
    return -1;
  }
}

}  // extern "C"
