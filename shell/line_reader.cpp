#include "shell/line_reader.h"

#include <readline/history.h>
#include <readline/readline.h>

#include <cstdio>
#include <cstdlib>
#include <memory>

namespace floe {

namespace {

constexpr int kHistoryLines = 2000;

}  // namespace

std::optional<std::string> StreamLineReader::read_line(const std::string&) {
  std::string line;
  if (!std::getline(in_, line)) return std::nullopt;
  if (!line.empty() && line.back() == '\r') line.pop_back();
  return line;
}

ReadlineLineReader::ReadlineLineReader() {
  if (const char* home = std::getenv("HOME")) history_path_ = std::string(home) + "/.floe_history";
  using_history();
  if (!history_path_.empty() && read_history(history_path_.c_str()) != 0) {
    // No history file yet: create it so append_history can extend it.
    write_history(history_path_.c_str());
  }
}

std::optional<std::string> ReadlineLineReader::read_line(const std::string& prompt) {
  std::unique_ptr<char, decltype(&std::free)> line(readline(prompt.c_str()), &std::free);
  if (!line) return std::nullopt;
  std::string text(line.get());
  if (text.find_first_not_of(" \t") != std::string::npos) {
    add_history(line.get());
    if (!history_path_.empty()) {
      append_history(1, history_path_.c_str());
      history_truncate_file(history_path_.c_str(), kHistoryLines);
    }
  }
  return text;
}

}  // namespace floe
