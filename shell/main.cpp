// floe: the interactive SQL shell on an in-memory database.
//   floe                 interactive (readline) when stdin is a terminal, else runs stdin;
//                        interactively, Ctrl-C cancels the running statement or drops the
//                        line being typed
//   floe -c "SQL"        runs the statements and exits (status 1 if one failed)
#include <unistd.h>

#include <cstring>
#include <iostream>
#include <memory>
#include <string_view>

#include "engine/api/floe.h"
#include "shell/interrupt.h"
#include "shell/line_reader.h"
#include "shell/shell.h"

namespace {

constexpr const char* kPrompt = "floe> ";
constexpr const char* kContinuationPrompt = "   ...> ";

int usage(const char* program) {
  std::cerr << "usage: " << program << " [-c SQL]\n"
            << "  Without -c, reads SQL and dot commands from standard input\n"
            << "  (interactively with line editing when it is a terminal).\n";
  return 2;
}

// COPY and CALL dbgen progress on the terminal, so loading a lot does not look hung.
void show_progress(floe::api::Connection& connection) {
  connection.on_copy_progress(
      [](uint64_t rows) { std::cerr << "COPY: " << rows << " rows loaded so far...\n"; });
  connection.on_load_progress([](std::string_view tables, uint64_t done, uint64_t total) {
    uint64_t percent = total == 0 ? 100 : done * 100 / total;
    std::cerr << "\rloading " << tables << ": " << percent << "%   " << (done == total ? "\n" : "")
              << std::flush;
  });
}

}  // namespace

int main(int argc, char** argv) {
  floe::api::keep_freed_memory_for_reuse();
  floe::api::Database database(":memory:");
  floe::Shell shell(database, std::cout, std::cerr);
  if (isatty(STDERR_FILENO)) show_progress(shell.connection());
  if (argc == 3 && std::strcmp(argv[1], "-c") == 0) {
    shell.run_script(argv[2]);
    return shell.error_count() ? 1 : 0;
  }
  if (argc != 1) return usage(argv[0]);

  bool interactive = isatty(STDIN_FILENO);
  std::unique_ptr<floe::LineReader> reader;
  if (interactive) {
    floe::install_interrupt_handler(shell.connection());
    reader = std::make_unique<floe::ReadlineLineReader>();
    std::cout << "floe: in-memory SQL database. Enter \".help\" for usage hints.\n";
  } else {
    reader = std::make_unique<floe::StreamLineReader>(std::cin);
  }
  while (!shell.quit_requested()) {
    floe::InputLine line = reader->read_line(shell.continuing() ? kContinuationPrompt : kPrompt);
    if (line.kind == floe::InputLine::Kind::kEnd) break;
    if (line.kind == floe::InputLine::Kind::kInterrupted) {
      shell.discard_pending_input();
      continue;
    }
    shell.process_line(line.text);
  }
  shell.finish_input();
  if (interactive) {
    std::cout << "\n";
    return 0;  // a failed statement never ends an interactive session badly
  }
  return shell.error_count() ? 1 : 0;
}
