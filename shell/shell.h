// The shell's engine room: feeds input lines to the statement splitter, runs statements and
// dot commands, prints results and errors. Independent of the terminal, so tests drive it
// with string streams. It uses the public API (engine/api/floe.h) only.
#pragma once

#include <ostream>
#include <string>
#include <string_view>

#include "engine/api/floe.h"
#include "shell/statement_splitter.h"

namespace floe {

class Shell {
 public:
  Shell(api::Database& database, std::ostream& out, std::ostream& err);

  // One line of input: a dot command (at the start of a statement) or SQL text.
  void process_line(std::string_view line);
  // End of input: runs an unterminated last statement.
  void finish_input();
  // Ctrl-C at the prompt: forgets an unfinished statement.
  void discard_pending_input() { splitter_.take_rest(); }
  // Runs a whole script (e.g. `floe -c`): every line, then finish_input().
  void run_script(std::string_view text);

  bool continuing() const { return splitter_.pending(); }
  bool quit_requested() const { return quit_; }
  int error_count() const { return errors_; }
  api::Connection& connection() { return connection_; }

 private:
  void run_statement(const std::string& statement);
  void run_dot_command(std::string_view line);
  void read_file(const std::string& path);
  void print_help();
  void print_tables();
  void print_schema(std::string_view table_name);
  void report_error(std::string_view message);

  api::Database& database_;
  api::Connection connection_;
  std::ostream& out_;
  std::ostream& err_;
  StatementSplitter splitter_;
  api::OutputMode mode_ = api::OutputMode::kBox;
  bool timer_ = false;
  bool quit_ = false;
  int errors_ = 0;
  int read_depth_ = 0;
};

}  // namespace floe
