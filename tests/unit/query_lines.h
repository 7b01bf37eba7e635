// The rows of a query as "v1|v2|..." lines, in the result's order, or its error as the one
// line "error: <message>": what tests that compare execution modes compare.
#pragma once

#include <string>
#include <vector>

#include "engine/api/database.h"
#include "storage/error.h"

namespace floe::testing {

inline std::vector<std::string> query_lines(Connection& connection, const std::string& sql) {
  std::vector<std::string> lines;
  try {
    Result result = connection.query(sql);
    for (size_t r = 0; r < result.row_count(); ++r) {
      std::string line;
      for (size_t c = 0; c < result.column_count(); ++c)
        line += (c ? "|" : "") + result.value(r, c).to_string();
      lines.push_back(line);
    }
  } catch (const Error& error) {
    return {std::string("error: ") + error.what()};
  }
  return lines;
}

}  // namespace floe::testing
