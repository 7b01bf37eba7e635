// The families of scalar functions in the registry (runtime/function_registry.h); each
// family's file defines its typed functions and registers their overloads.
#pragma once

#include <string_view>

namespace floe {

class FunctionRegistry;

// subquery_single_row(bigint rows) -> boolean: true, or PostgreSQL's error when a scalar
// subquery gave an outer row more than one row.
constexpr std::string_view kSingleRowFunction = "subquery_single_row";

void register_math_functions(FunctionRegistry& registry);
void register_string_functions(FunctionRegistry& registry);
void register_pattern_functions(FunctionRegistry& registry);
void register_date_time_functions(FunctionRegistry& registry);
void register_subquery_functions(FunctionRegistry& registry);
void register_sequence_functions(FunctionRegistry& registry);

class TableFunctionRegistry;
// Set-returning functions (runtime/table_function.h).
void register_split_functions(TableFunctionRegistry& registry);
void register_series_functions(TableFunctionRegistry& registry);

}  // namespace floe
