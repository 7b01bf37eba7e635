// Reads sqllogictest files (SQLite's format, plus DuckDB's tab-separated result rows,
// `statement error` with an expected message, and "<REGEX>:pattern" results). A query
// without columns (SELECT FROM t) is a bare `query` line; as it has no values, its expected
// result is the one line psql prints for it, the row count: "(3 rows)", "(1 row)".
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace floe {

enum class RecordKind { kStatementOk, kStatementError, kQuery, kHashThreshold, kHalt };
enum class SortMode { kNoSort, kRowSort, kValueSort };

struct SltRecord {
  RecordKind kind = RecordKind::kStatementOk;
  int line = 0;  // 1-based line of the record's directive
  std::string sql;
  std::string expected_error;  // statement error: a substring of the message; may be empty
  std::string types;           // query: one letter (I, R, T) per column; empty: no columns
  SortMode sort = SortMode::kNoSort;
  std::string label;
  std::vector<std::string> expected_lines;  // query: the lines after "----"
  uint64_t hash_threshold = 0;
};

// Records meant for floe, in order (skipif floe / onlyif <other> records are dropped).
// Throws floe::Error("<file>:<line>: ...") on malformed input.
std::vector<SltRecord> parse_slt(std::string_view text, const std::string& file_name);

}  // namespace floe
