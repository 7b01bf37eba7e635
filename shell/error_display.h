// psql-style error report: the message and, when the position is known, the statement line
// with a caret under the offending spot.
#pragma once

#include <string>
#include <string_view>

namespace floe {

// position: byte offset into `statement`, or -1. The result ends with a line break.
std::string format_error(std::string_view message, int position, std::string_view statement);

}  // namespace floe
