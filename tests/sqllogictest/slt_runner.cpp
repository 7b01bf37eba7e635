#include "tests/sqllogictest/slt_runner.h"

#include <algorithm>
#include <fstream>
#include <sstream>

#include <re2/re2.h>

#include "engine/api/database.h"
#include "storage/error.h"
#include "runtime/functions/md5.h"

namespace floe {

namespace {

using Values = std::vector<std::string>;

std::string hash_values(const Values& values) {
  Md5 md5;
  for (const std::string& value : values) {
    md5.update(value);
    md5.update("\n");
  }
  return md5.hex_digest();
}

// Sorts the values as rows of `columns` values (rowsort) or one by one (valuesort).
void sort_values(Values& values, SortMode mode, size_t columns) {
  if (mode == SortMode::kValueSort) {
    std::sort(values.begin(), values.end());
  } else if (mode == SortMode::kRowSort && columns > 0 && values.size() % columns == 0) {
    std::vector<Values> rows;
    for (size_t i = 0; i < values.size(); i += columns)
      rows.emplace_back(values.begin() + static_cast<long>(i),
                        values.begin() + static_cast<long>(i + columns));
    std::sort(rows.begin(), rows.end());
    values.clear();
    for (Values& row : rows) values.insert(values.end(), row.begin(), row.end());
  }
}

std::string indent_values(const Values& values, size_t columns) {
  std::string out;
  for (size_t i = 0; i < values.size(); ++i) {
    out += (columns && i % columns == 0) ? (i ? "\n  " : "  ") : "\t";
    out += values[i];
  }
  return out + "\n";
}

class FileRun {
 public:
  FileRun(const std::string& path, std::ostream& report, const std::string& setup)
      : path_(path), report_(report), connection_(database_) {
    if (!setup.empty()) connection_.query(setup);
  }

  void run(const std::vector<SltRecord>& records, SltSummary& summary) {
    for (const SltRecord& record : records) {
      if (record.kind == RecordKind::kHalt) break;
      if (record.kind == RecordKind::kHashThreshold) {
        hash_threshold_ = record.hash_threshold;
        continue;
      }
      ++summary.records;
      std::string failure =
          record.kind == RecordKind::kQuery ? run_query(record) : run_statement(record);
      if (!failure.empty()) {
        ++summary.failures;
        report_ << path_ << ":" << record.line << ": " << failure << "\n";
      }
    }
  }

 private:
  std::string with_sql(const SltRecord& record, const std::string& what) {
    return what + "\nSQL: " + record.sql + "\n";
  }

  std::string run_statement(const SltRecord& record) {
    try {
      connection_.query(record.sql);
    } catch (const std::exception& e) {
      if (record.kind == RecordKind::kStatementOk) {
        return with_sql(record, "statement failed: " + std::string(e.what()));
      }
      if (std::string(e.what()).find(record.expected_error) == std::string::npos) {
        return with_sql(record, "wrong error message\nexpected it to contain: " +
                                    record.expected_error + "\nactual: " + e.what());
      }
      return "";
    }
    if (record.kind == RecordKind::kStatementError) {
      return with_sql(record, "statement succeeded but an error was expected");
    }
    return "";
  }

  std::string run_query(const SltRecord& record) {
    Result result;
    try {
      result = connection_.query(record.sql);
    } catch (const std::exception& e) {
      return with_sql(record, "query failed: " + std::string(e.what()));
    }
    if (!result.has_rows()) return with_sql(record, "statement returned no result set");
    size_t columns = result.column_count();
    if (record.types.size() != columns) {
      return with_sql(record, "query returned " + std::to_string(columns) +
                                  " columns but its type string \"" + record.types + "\" names " +
                                  std::to_string(record.types.size()));
    }
    if (columns == 0) {
      // Only the number of rows can differ: compared as psql's footer.
      size_t rows = result.row_count();
      std::string actual = rows == 1 ? "(1 row)" : "(" + std::to_string(rows) + " rows)";
      if (record.expected_lines[0] == actual) return "";
      return with_sql(record, "wrong result") + "expected:\n  " + record.expected_lines[0] +
             "\nactual:\n  " + actual + "\n";
    }
    Values actual;
    for (const std::vector<Value>& row : result.rows())
      for (const Value& value : row) actual.push_back(slt_value_text(value));
    sort_values(actual, record.sort, columns);
    std::string actual_hash = hash_values(actual);

    static const RE2 kHashLine(R"((\d+) values hashing to ([0-9a-f]{32}))");
    uint64_t hashed_count = 0;
    std::string hashed_digest;
    std::string first = record.expected_lines.empty() ? "" : record.expected_lines[0];
    bool hashed = record.expected_lines.size() == 1 &&
                  RE2::FullMatch(first, kHashLine, &hashed_count, &hashed_digest);
    bool over_threshold = hash_threshold_ > 0 && actual.size() > hash_threshold_;
    auto hash_line = [](size_t count, const std::string& hash) {
      return "  " + std::to_string(count) + " values hashing to " + hash + "\n";
    };
    bool ok;
    std::string expected_text;
    constexpr std::string_view kRegexPrefix = "<REGEX>:";
    if (record.expected_lines.size() == 1 && first.starts_with(kRegexPrefix)) {
      // DuckDB's extension: the values, one per line, must contain a match of the pattern.
      std::string joined;
      for (const std::string& value : actual) joined += value + "\n";
      RE2 pattern(first.substr(kRegexPrefix.size()));
      ok = pattern.ok() && RE2::PartialMatch(joined, pattern);
      expected_text = "  " + first + "\n";
    } else if (hashed) {
      ok = hashed_count == actual.size() && hashed_digest == actual_hash;
      expected_text = "  " + first + "\n";
    } else {
      Values expected = flatten_expected(record.expected_lines);
      sort_values(expected, record.sort, columns);
      ok = expected == actual;
      expected_text = over_threshold ? hash_line(expected.size(), hash_values(expected))
                                     : indent_values(expected, columns);
    }
    if (ok && !record.label.empty()) {
      auto [it, inserted] = label_hashes_.emplace(record.label, actual_hash);
      if (!inserted && it->second != actual_hash) {
        return with_sql(record, "result differs from the earlier query labelled " + record.label);
      }
    }
    if (ok) return "";
    std::string actual_text = hashed || over_threshold ? hash_line(actual.size(), actual_hash)
                                                       : indent_values(actual, columns);
    return with_sql(record, "wrong result") + "expected:\n" + expected_text + "actual:\n" +
           actual_text;
  }

  std::string path_;
  std::ostream& report_;
  Database database_;
  Connection connection_;
  uint64_t hash_threshold_ = 0;
  std::map<std::string, std::string> label_hashes_;
};

}  // namespace

std::string slt_value_text(const Value& value) {
  if (value.is_null()) return "NULL";
  std::string text = value.to_string();
  return text.empty() ? "(empty)" : text;
}

std::vector<std::string> flatten_expected(const std::vector<std::string>& lines) {
  Values values;
  for (const std::string& line : lines) {
    size_t start = 0;
    for (;;) {
      size_t tab = line.find('\t', start);
      values.push_back(line.substr(start, tab - start));
      if (tab == std::string::npos) break;
      start = tab + 1;
    }
  }
  return values;
}

SltSummary SltRunner::run_file(const std::string& path) {
  SltSummary summary;
  std::ifstream in(path, std::ios::binary);
  if (!in) {
    report_ << path << ": cannot open file\n";
    summary.failures = 1;
    return summary;
  }
  std::stringstream text;
  text << in.rdbuf();
  try {
    FileRun(path, report_, setup_).run(parse_slt(text.str(), path), summary);
  } catch (const Error& e) {  // malformed test file
    report_ << e.what() << "\n";
    ++summary.failures;
  }
  return summary;
}

}  // namespace floe
