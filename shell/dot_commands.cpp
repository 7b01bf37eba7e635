// The shell's dot commands (.help, .tables, .schema, .read, .mode, .timer, .quit).
#include <fstream>
#include <optional>
#include <sstream>
#include <vector>

#include "shell/shell.h"

namespace floe {

namespace {

constexpr int kMaxReadDepth = 16;

std::vector<std::string> split_words(std::string_view line) {
  std::vector<std::string> words;
  std::istringstream in{std::string(line)};
  for (std::string word; in >> word;) words.push_back(word);
  return words;
}

}  // namespace

void Shell::report_error(std::string_view message) {
  ++errors_;
  err_ << api::format_error(message, -1, "");
}

void Shell::run_dot_command(std::string_view line) {
  std::vector<std::string> words = split_words(line);
  const std::string& command = words[0];
  size_t arguments = words.size() - 1;
  if (command == ".quit" || command == ".exit") {
    quit_ = true;
  } else if (command == ".help") {
    print_help();
  } else if (command == ".tables" && arguments == 0) {
    print_tables();
  } else if (command == ".schema" && arguments <= 1) {
    print_schema(arguments ? words[1] : "");
  } else if (command == ".read" && arguments == 1) {
    read_file(words[1]);
  } else if (command == ".mode" && arguments == 0) {
    out_ << "current output mode: " << api::output_mode_name(mode_) << "\n";
  } else if (command == ".mode" && arguments == 1) {
    if (auto mode = api::parse_output_mode(words[1])) {
      mode_ = *mode;
    } else {
      report_error("unknown output mode \"" + words[1] +
                   "\"; use box, csv, markdown, line or list");
    }
  } else if (command == ".timer" && arguments == 1 && (words[1] == "on" || words[1] == "off")) {
    timer_ = words[1] == "on";
  } else if (command == ".tables" || command == ".schema" || command == ".read" ||
             command == ".mode" || command == ".timer") {
    report_error("wrong arguments for " + command + "; enter \".help\" for usage");
  } else {
    report_error("unknown command \"" + command + "\"; enter \".help\" for usage");
  }
  out_.flush();
}

void Shell::print_help() {
  out_ << "SQL statements end with ';' and may span several lines.\n"
          ".help                      show this message\n"
          ".tables                    list the tables\n"
          ".schema [TABLE]            show CREATE TABLE statements\n"
          ".read FILE                 run the SQL and dot commands in FILE\n"
          ".mode box|csv|markdown|line|list\n"
          "                           set the output format (default box)\n"
          ".timer on|off              show parse, plan, codegen, compile and execute times\n"
          ".quit, .exit               leave the shell\n";
}

void Shell::print_tables() {
  for (const std::string& name : database_.table_names()) out_ << name << "\n";
}

void Shell::print_schema(std::string_view table_name) {
  if (!table_name.empty()) {
    std::optional<std::string> definition = database_.table_definition(table_name);
    if (!definition)
      return report_error("relation \"" + std::string(table_name) + "\" does not exist");
    out_ << *definition;
    return;
  }
  for (const std::string& name : database_.table_names())
    out_ << database_.table_definition(name).value_or("");
}

void Shell::read_file(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return report_error("could not open file \"" + path + "\"");
  if (read_depth_ >= kMaxReadDepth) return report_error(".read nested too deeply");
  std::stringstream text;
  text << in.rdbuf();
  // The file gets its own splitter, so a statement cannot straddle the file boundary.
  StatementSplitter outer;
  std::swap(outer, splitter_);
  ++read_depth_;
  run_script(text.str());
  --read_depth_;
  std::swap(outer, splitter_);
}

}  // namespace floe
