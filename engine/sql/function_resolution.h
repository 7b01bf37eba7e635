// Calls of registry functions and operators (runtime/function_registry.h): overload
// resolution with PostgreSQL's rules (its documentation, "Type Conversion": Functions and
// Operators), the implicit casts of the arguments, and the result type.
#pragma once

#include <string_view>
#include <vector>

#include "engine/plan/expression.h"

namespace floe::sql {

// Whether the registry has a function or operator called `name`.
bool is_registry_function(std::string_view name);

// A kFunction expression calling the best overload of `name` for `arguments`. Throws
// "function f(types) does not exist" ("operator does not exist: ..." when is_operator) when
// no overload takes the arguments, "... is not unique" when several fit equally well.
plan::ExprPtr resolve_function(std::string_view name, std::vector<plan::ExprPtr> arguments,
                               int location, bool is_operator = false);

// The index of the best of `candidates` (parameter lists of the overloads of `name`) for
// `arguments`, which are converted to its parameter types. Throws as resolve_function does.
size_t resolve_overload(std::string_view name,
                        const std::vector<const std::vector<TypeId>*>& candidates,
                        std::vector<plan::ExprPtr>& arguments, int location,
                        bool is_operator = false);

}  // namespace floe::sql
