// The regular expressions of the pattern functions (pattern_functions.cpp), shared with the
// set-returning regexp_split_to_table (split_functions.cpp): one translation of PostgreSQL's
// patterns and flags into RE2.
#pragma once

#include <re2/re2.h>

#include <string_view>

namespace floe {

// `pattern` compiled for UTF-8 text. The reference stays valid until this thread compiles a
// few other patterns (a small per-thread cache), so a caller that runs other code in between
// looks it up again. Throws floe::Error "invalid regular expression: ...".
const RE2& compiled_regex(std::string_view pattern, bool case_insensitive);

// PostgreSQL's flags argument: 'g' (every match), 'i' (case-insensitive), 'c' (case-sensitive,
// the default). Throws floe::Error "invalid regular expression option" for others.
struct RegexFlags {
  bool global = false;
  bool case_insensitive = false;
};
RegexFlags parse_regex_flags(std::string_view flags);

}  // namespace floe
