#include "shell/statement_splitter.h"

#include <algorithm>
#include <cctype>

namespace floe {

namespace {

bool is_identifier_char(char c) {
  return std::isalnum(static_cast<unsigned char>(c)) || c == '_' ||
         static_cast<unsigned char>(c) >= 0x80;
}

// Length of a dollar-quote delimiter ("$$" or "$tag$") starting at `at`, or 0.
size_t dollar_tag_length(std::string_view text, size_t at) {
  size_t end = at + 1;
  while (end < text.size() && is_identifier_char(text[end])) ++end;
  if (end >= text.size() || text[end] != '$') return 0;
  if (end > at + 1 && std::isdigit(static_cast<unsigned char>(text[at + 1]))) return 0;  // $1
  return end - at + 1;
}

std::string trim(std::string_view text) {
  size_t begin = text.find_first_not_of(" \t\r\n");
  if (begin == std::string_view::npos) return "";
  size_t end = text.find_last_not_of(" \t\r\n");
  return std::string(text.substr(begin, end - begin + 1));
}

}  // namespace

void StatementSplitter::add_line(std::string_view line) {
  if (!buffer_.empty()) buffer_ += '\n';
  buffer_ += line;
  scan();
}

void StatementSplitter::scan() {
  std::string_view text = buffer_;
  size_t i = scanned_;
  size_t statement_start = 0;
  while (i < text.size()) {
    char c = text[i];
    switch (state_) {
      case State::kSingleQuote:
        if (c == '\'') state_ = State::kNormal;  // '' re-enters at once: a literal quote
        ++i;
        continue;
      case State::kEscapeQuote:
        if (c == '\\') {
          i += 2;
          continue;
        }
        if (c == '\'') state_ = State::kNormal;
        ++i;
        continue;
      case State::kDoubleQuote:
        if (c == '"') state_ = State::kNormal;
        ++i;
        continue;
      case State::kDollarQuote:
        if (text.compare(i, dollar_tag_.size(), dollar_tag_) == 0) {
          i += dollar_tag_.size();
          state_ = State::kNormal;
        } else {
          ++i;
        }
        continue;
      case State::kBlockComment:
        if (text.compare(i, 2, "*/") == 0) {
          if (--comment_depth_ == 0) state_ = State::kNormal;
          i += 2;
        } else if (text.compare(i, 2, "/*") == 0) {
          ++comment_depth_;
          i += 2;
        } else {
          ++i;
        }
        continue;
      case State::kNormal:
        break;
    }
    if (c == '-' && text.compare(i, 2, "--") == 0) {
      size_t newline = text.find('\n', i);
      if (newline == std::string_view::npos) break;  // the comment ends with the line
      i = newline + 1;
      continue;
    }
    if (c == '/' && text.compare(i, 2, "/*") == 0) {
      state_ = State::kBlockComment;
      comment_depth_ = 1;
      i += 2;
      continue;
    }
    if (c == ';') {
      if (has_content_)
        statements_.push_back(trim(text.substr(statement_start, i + 1 - statement_start)));
      has_content_ = false;
      statement_start = ++i;
      continue;
    }
    if (!std::isspace(static_cast<unsigned char>(c))) has_content_ = true;
    if (c == '\'') {
      bool escape_string = i > 0 && (text[i - 1] == 'e' || text[i - 1] == 'E') &&
                           (i < 2 || !is_identifier_char(text[i - 2]));
      state_ = escape_string ? State::kEscapeQuote : State::kSingleQuote;
    } else if (c == '"') {
      state_ = State::kDoubleQuote;
    } else if (c == '$' && (i == 0 || !is_identifier_char(text[i - 1]))) {
      if (size_t length = dollar_tag_length(text, i)) {
        dollar_tag_ = std::string(text.substr(i, length));
        state_ = State::kDollarQuote;
        i += length;
        continue;
      }
    }
    ++i;
  }
  // Keep only the unfinished statement. Blanks and comments alone are dropped: a "--"
  // comment always ends with its line.
  if (!has_content_ && state_ == State::kNormal) {
    buffer_.clear();
    scanned_ = 0;
    return;
  }
  scanned_ = std::min(i, text.size()) - statement_start;
  buffer_.erase(0, statement_start);
}

std::vector<std::string> StatementSplitter::take_statements() {
  std::vector<std::string> out;
  out.swap(statements_);
  return out;
}

std::string StatementSplitter::take_rest() {
  std::string rest = has_content_ ? trim(buffer_) : "";
  buffer_.clear();
  scanned_ = 0;
  state_ = State::kNormal;
  has_content_ = false;
  return rest;
}

}  // namespace floe
