// The families of scalar functions in the registry (runtime/function_registry.h); each
// family's file defines its typed functions and registers their overloads.
#pragma once

namespace floe {

class FunctionRegistry;

void register_math_functions(FunctionRegistry& registry);
void register_string_functions(FunctionRegistry& registry);
void register_pattern_functions(FunctionRegistry& registry);
void register_date_time_functions(FunctionRegistry& registry);

}  // namespace floe
