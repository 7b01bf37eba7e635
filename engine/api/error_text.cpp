#include "engine/api/error_text.h"

#include "storage/utf8.h"

namespace floe::api {

std::string format_error(std::string_view message, int position, std::string_view statement) {
  std::string out = "Error: " + std::string(message) + "\n";
  if (position < 0 || static_cast<size_t>(position) > statement.size()) return out;
  size_t at = static_cast<size_t>(position);
  size_t line_start = 0, line_number = 1;
  for (size_t i = 0; i < at; ++i) {
    if (statement[i] == '\n') line_start = i + 1, ++line_number;
  }
  size_t line_end = statement.find('\n', at);
  if (line_end == std::string_view::npos) line_end = statement.size();

  std::string prefix = "LINE " + std::to_string(line_number) + ": ";
  out += prefix + std::string(statement.substr(line_start, line_end - line_start)) + "\n";
  size_t caret_column = prefix.size() + utf8_length(statement.substr(line_start, at - line_start));
  out += std::string(caret_column, ' ') + "^\n";
  return out;
}

}  // namespace floe::api
