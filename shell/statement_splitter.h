// Cuts shell input into SQL statements: a statement ends at a ';' that is outside quotes,
// dollar quotes and comments, so multi-line statements can be typed line by line.
#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace floe {

class StatementSplitter {
 public:
  // Adds one line of input (without its line break).
  void add_line(std::string_view line);
  // Statements completed so far, in order, each ending with its ';'.
  std::vector<std::string> take_statements();
  // True while part of a statement is buffered (the shell shows the continuation prompt).
  bool pending() const { return has_content_ || state_ != State::kNormal; }
  // At the end of input: the unterminated rest, if it holds anything but blanks and comments.
  std::string take_rest();

 private:
  enum class State {
    kNormal,
    kSingleQuote,
    kEscapeQuote,
    kDoubleQuote,
    kDollarQuote,
    kBlockComment
  };
  void scan();

  std::string buffer_;
  size_t scanned_ = 0;
  State state_ = State::kNormal;
  int comment_depth_ = 0;   // PostgreSQL block comments nest
  std::string dollar_tag_;  // "$tag$" while inside a dollar-quoted string
  bool has_content_ = false;
  std::vector<std::string> statements_;
};

}  // namespace floe
