#include "tests/sqllogictest/slt_parser.h"

#include <sstream>

#include "storage/error.h"

namespace floe {

namespace {

constexpr std::string_view kEngineName = "floe";

std::vector<std::string> split_words(std::string_view line) {
  std::vector<std::string> words;
  std::istringstream in{std::string(line)};
  for (std::string word; in >> word;) words.push_back(word);
  return words;
}

class LineCursor {
 public:
  explicit LineCursor(std::string_view text) {
    while (!text.empty()) {
      size_t newline = text.find('\n');
      std::string_view line = text.substr(0, newline);
      if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
      lines_.push_back(line);
      text = newline == std::string_view::npos ? std::string_view() : text.substr(newline + 1);
    }
  }
  bool done() const { return next_ >= lines_.size(); }
  std::string_view peek() const { return lines_[next_]; }
  std::string_view take() { return lines_[next_++]; }
  int line_number() const { return static_cast<int>(next_); }  // of the line last taken

 private:
  std::vector<std::string_view> lines_;
  size_t next_ = 0;
};

bool is_blank(std::string_view line) {
  return line.find_first_not_of(" \t") == std::string_view::npos;
}

// Lines up to a blank line (or a "----" line when `stop_at_separator`); true if "----" ended it.
bool take_block(LineCursor& cursor, std::string& out, bool stop_at_separator) {
  while (!cursor.done() && !is_blank(cursor.peek())) {
    std::string_view line = cursor.take();
    if (stop_at_separator && line == "----") return true;
    if (!out.empty()) out += '\n';
    out += line;
  }
  return false;
}

}  // namespace

std::vector<SltRecord> parse_slt(std::string_view text, const std::string& file_name) {
  LineCursor cursor(text);
  std::vector<SltRecord> records;
  bool skip_next = false;
  auto fail = [&](const std::string& message) -> void {
    throw Error(file_name + ":" + std::to_string(cursor.line_number()) + ": " + message);
  };
  while (!cursor.done()) {
    std::string_view line = cursor.take();
    if (is_blank(line) || line[0] == '#') continue;
    std::vector<std::string> words = split_words(line);
    const std::string& directive = words[0];
    if (directive == "skipif" || directive == "onlyif") {
      if (words.size() != 2) fail(directive + " needs an engine name");
      skip_next |= (directive == "skipif") == (words[1] == kEngineName);
      continue;
    }
    SltRecord record;
    record.line = cursor.line_number();
    if (directive == "statement") {
      if (words.size() < 2 || (words[1] != "ok" && words[1] != "error")) {
        fail("expected \"statement ok\" or \"statement error\"");
      }
      record.kind = words[1] == "ok" ? RecordKind::kStatementOk : RecordKind::kStatementError;
      bool separator = take_block(cursor, record.sql, true);
      if (separator) {
        if (record.kind != RecordKind::kStatementError) fail("\"----\" after statement ok");
        take_block(cursor, record.expected_error, false);
      }
    } else if (directive == "query") {
      record.kind = RecordKind::kQuery;
      // A bare "query" is one without columns (SELECT FROM t); otherwise the types come first.
      if (words.size() >= 2) record.types = words[1];
      for (char type : record.types) {
        if (type != 'I' && type != 'R' && type != 'T')
          fail("unknown column type letter in " + words[1]);
      }
      for (size_t i = 2; i < words.size(); ++i) {
        if (words[i] == "nosort") {
          record.sort = SortMode::kNoSort;
        } else if (words[i] == "rowsort") {
          record.sort = SortMode::kRowSort;
        } else if (words[i] == "valuesort") {
          record.sort = SortMode::kValueSort;
        } else if (record.label.empty()) {
          record.label = words[i];
        } else {
          fail("unexpected \"" + words[i] + "\" in query line");
        }
      }
      if (take_block(cursor, record.sql, true)) {
        while (!cursor.done() && !is_blank(cursor.peek())) {
          record.expected_lines.emplace_back(cursor.take());
        }
      }
      if (record.types.empty() && record.expected_lines.size() != 1)
        fail(
            "a query without columns expects one line, its row count as psql shows it: "
            "\"(3 rows)\"");
    } else if (directive == "hash-threshold") {
      if (words.size() != 2) fail("hash-threshold needs a number");
      record.kind = RecordKind::kHashThreshold;
      record.hash_threshold = std::stoull(words[1]);
    } else if (directive == "halt") {
      record.kind = RecordKind::kHalt;
    } else {
      fail("unknown directive \"" + directive + "\"");
    }
    if (record.sql.empty() &&
        (record.kind == RecordKind::kStatementOk || record.kind == RecordKind::kStatementError ||
         record.kind == RecordKind::kQuery)) {
      fail("record without SQL");
    }
    if (!skip_next) records.push_back(std::move(record));
    skip_next = false;
  }
  return records;
}

}  // namespace floe
