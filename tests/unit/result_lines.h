// Query results as comparable text, for the tests that compare engines, join tables or
// thread counts: one "v1|v2|..." line per row.
#pragma once

#include <algorithm>
#include <string>
#include <vector>

#include "engine/api/database.h"
#include "storage/error.h"

namespace floe::testing {

// The rows in the result's order.
inline std::vector<std::string> result_lines(const Result& result) {
  std::vector<std::string> out;
  for (size_t r = 0; r < result.row_count(); ++r) {
    std::string line;
    for (size_t c = 0; c < result.column_count(); ++c)
      line += (c ? "|" : "") + result.value(r, c).to_string();
    out.push_back(line);
  }
  return out;
}

// The rows sorted (rows that come in any order, such as those of several workers).
inline std::vector<std::string> sorted_lines(const Result& result) {
  std::vector<std::string> out = result_lines(result);
  std::sort(out.begin(), out.end());
  return out;
}

// The rows of `sql` in the result's order, or its error as the one line "error: <message>".
inline std::vector<std::string> query_lines(Connection& connection, const std::string& sql) {
  try {
    return result_lines(connection.query(sql));
  } catch (const Error& error) {
    return {std::string("error: ") + error.what()};
  }
}

// As query_lines, sorted.
inline std::vector<std::string> sorted_rows(Connection& connection, const std::string& sql) {
  std::vector<std::string> lines = query_lines(connection, sql);
  std::sort(lines.begin(), lines.end());
  return lines;
}

}  // namespace floe::testing
