// For the tests that compare the vectorized and the compiled engine: a query's rows as
// lines, sorted (the engines may emit them in any order), or its error.
#pragma once

#include <algorithm>
#include <string>
#include <vector>

#include "engine/api/database.h"
#include "storage/error.h"

namespace floe::testing {

// The rows of `sql` on `connection`, one line each ("v1|v2|..."), sorted; or the one line
// "error: <message>".
inline std::vector<std::string> sorted_rows(Connection& connection, const std::string& sql) {
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
  std::sort(lines.begin(), lines.end());
  return lines;
}

}  // namespace floe::testing
