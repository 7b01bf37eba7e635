// A query result as comparable text: one "v1|v2|..." line per row, sorted (tests whose rows
// come in any order, such as those of several workers).
#pragma once

#include <algorithm>
#include <string>
#include <vector>

#include "engine/api/database.h"

namespace floe::testing {

inline std::vector<std::string> sorted_lines(const Result& result) {
  std::vector<std::string> out;
  for (size_t r = 0; r < result.row_count(); ++r) {
    std::string line;
    for (size_t c = 0; c < result.column_count(); ++c)
      line += (c ? "|" : "") + result.value(r, c).to_string();
    out.push_back(line);
  }
  std::sort(out.begin(), out.end());
  return out;
}

}  // namespace floe::testing
