// How deep libpg_query may recurse on a script. libpg_query (as Debian ships it) has no stack
// depth check of its own: turning a deeply nested statement into protobuf, and unpacking
// that, recurse once per tree level until the stack overflows, long after PostgreSQL's own
// "stack depth limit exceeded" (about 4,000 terms of 1+1+...). floe therefore bounds the tree
// depth from the tokens before parsing (PostgreSQL's scanner, which does not recurse) and
// refuses what would not fit in the stack.
#pragma once

#include <cstddef>
#include <string_view>

namespace floe::sql {

// An upper bound on the parse tree depth of `sql`, in levels that each cost libpg_query at
// most kParseStackPerLevel bytes of stack. Operators and keywords count as levels (names and
// constants are leaves) except where they cannot nest: commas separate list items, AND/OR
// chains are flat (so they end operator chains), and parentheses, brackets and CASE ... END
// open nested groups whose depth adds to the enclosing one. Set operations (UNION, ...) chain
// across commas. At most 2 levels per byte of SQL, plus a constant.
size_t parse_depth_bound(std::string_view sql);

// Stack libpg_query uses per level of parse_depth_bound's count: measured at 1.9 KB for
// operator chains, JOINs and nested subqueries on Debian's libpg_query 15, plus a margin.
constexpr size_t kParseStackPerLevel = 2560;

// Whether libpg_query's parse tree of `sql` surely fits in the current thread's remaining
// stack (storage/stack_depth.h).
bool parse_fits_stack(std::string_view sql);

}  // namespace floe::sql
