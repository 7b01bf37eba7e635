#include "shell/shell.h"

namespace floe {

Shell::Shell(api::Database& database, std::ostream& out, std::ostream& err)
    : database_(database), connection_(database), out_(out), err_(err) {}

void Shell::process_line(std::string_view line) {
  if (quit_) return;
  size_t first = line.find_first_not_of(" \t");
  if (!splitter_.pending() && first != std::string_view::npos && line[first] == '.') {
    run_dot_command(line.substr(first));
    return;
  }
  splitter_.add_line(line);
  for (const std::string& statement : splitter_.take_statements()) {
    if (quit_) return;
    run_statement(statement);
  }
}

void Shell::finish_input() {
  std::string rest = splitter_.take_rest();
  if (!rest.empty() && !quit_) run_statement(rest);
}

void Shell::run_script(std::string_view text) {
  while (!text.empty() && !quit_) {
    size_t newline = text.find('\n');
    std::string_view line = text.substr(0, newline);
    if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
    process_line(line);
    text = newline == std::string_view::npos ? std::string_view() : text.substr(newline + 1);
  }
  finish_input();
}

void Shell::run_statement(const std::string& statement) {
  try {
    api::Result result = connection_.query(statement);
    for (const std::string& notice : result.notices()) err_ << "NOTICE:  " << notice << "\n";
    if (result.has_rows()) {
      out_ << result.render(mode_);
    } else if (!result.command_tag().empty()) {
      out_ << result.command_tag() << "\n";
    }
    if (timer_) out_ << result.timings().to_string();
  } catch (const api::Error& e) {
    ++errors_;
    err_ << api::format_error(e.what(), e.position(), statement);
  } catch (const std::exception& e) {  // a bug, but the shell must survive it
    ++errors_;
    err_ << api::format_error(std::string("internal error: ") + e.what(), -1, statement);
  }
  out_.flush();
}

}  // namespace floe
