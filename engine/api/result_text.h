// Renders query results as the shell prints them: box (default), csv, markdown, line and list
// modes (the public Result::render, engine/api/floe.h).
#pragma once

#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "engine/api/database.h"
#include "engine/api/floe.h"
#include "storage/value.h"

namespace floe {

// Declared in the public header (floe.h); defined in result_text.cpp.
using api::OutputMode;
using api::output_mode_name;
using api::parse_output_mode;

struct ResultTable {
  std::vector<std::string> column_names;
  std::vector<SqlType> column_types;
  std::span<const std::vector<Value>> rows;
};

ResultTable result_table(const Result& result);

// The rendered result, ending with a line break (box mode adds a "(N rows)" footer). A
// result without columns shows as psql shows it ("--" and the footer in box mode).
std::string format_result(const ResultTable& table, OutputMode mode);

}  // namespace floe
