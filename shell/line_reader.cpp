#include "shell/line_reader.h"

#include <poll.h>
#include <unistd.h>

// readline.h needs FILE declared first.
#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <optional>

#include <readline/history.h>
#include <readline/readline.h>

#include "shell/interrupt.h"

namespace floe {

namespace {

constexpr int kHistoryLines = 2000;

// What readline's line callback got (the callback interface passes no user data).
std::optional<InputLine> completed_line;

void on_line(char* line) {
  InputLine input;
  if (line) {
    input = {InputLine::Kind::kText, line};
    std::free(line);
  }
  completed_line = std::move(input);
  // Readline's own example removes the handler here, before the line is processed.
  rl_callback_handler_remove();
}

// Ctrl-C at the prompt: readline forgets the partial line and gives the terminal back.
void drop_partial_line() {
  rl_free_line_state();
  rl_callback_sigcleanup();
  rl_replace_line("", 0);
  rl_callback_handler_remove();
  std::fputs("^C\n", rl_outstream ? rl_outstream : stdout);
  std::fflush(rl_outstream ? rl_outstream : stdout);
}

}  // namespace

InputLine StreamLineReader::read_line(const std::string&) {
  std::string line;
  if (!std::getline(in_, line)) return {};
  if (!line.empty() && line.back() == '\r') line.pop_back();
  return {InputLine::Kind::kText, line};
}

ReadlineLineReader::ReadlineLineReader() {
  if (const char* home = std::getenv("HOME")) history_path_ = std::string(home) + "/.floe_history";
  rl_catch_signals = 0;  // SIGINT is the shell's (shell/interrupt.h)
  using_history();
  if (!history_path_.empty() && read_history(history_path_.c_str()) != 0) {
    // No history file yet: create it so append_history can extend it.
    write_history(history_path_.c_str());
  }
}

InputLine ReadlineLineReader::read_line(const std::string& prompt) {
  take_interrupt();  // a Ctrl-C that came while a statement ran is spent
  completed_line.reset();
  rl_callback_handler_install(prompt.c_str(), on_line);
  while (!completed_line) {
    pollfd waits[2] = {{STDIN_FILENO, POLLIN, 0}, {interrupt_fd(), POLLIN, 0}};
    if (poll(waits, interrupt_fd() >= 0 ? 2 : 1, -1) < 0) {
      if (errno == EINTR) continue;
      rl_callback_handler_remove();
      return {};
    }
    if ((waits[1].revents & POLLIN) && take_interrupt()) {
      drop_partial_line();
      return {InputLine::Kind::kInterrupted, ""};
    }
    if (waits[0].revents) rl_callback_read_char();
  }
  InputLine line = std::move(*completed_line);
  if (line.kind == InputLine::Kind::kText &&
      line.text.find_first_not_of(" \t") != std::string::npos) {
    add_history(line.text.c_str());
    if (!history_path_.empty()) {
      append_history(1, history_path_.c_str());
      history_truncate_file(history_path_.c_str(), kHistoryLines);
    }
  }
  return line;
}

}  // namespace floe
