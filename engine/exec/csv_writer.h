// Field encoding for COPY TO and the shell's csv mode (PostgreSQL CSV and text rules).
#pragma once

#include <string>
#include <string_view>

#include "engine/exec/csv_copy.h"

namespace floe {

// Appends one non-NULL field. CSV quotes it when it holds the delimiter, the quote, a line
// break, or would read back as NULL; text format backslash-escapes instead.
void append_field(std::string& out, std::string_view text, const CsvOptions& options);

}  // namespace floe
