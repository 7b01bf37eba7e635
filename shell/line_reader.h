// Where the shell's input lines come from: GNU readline with persistent history on a
// terminal, plain std::getline otherwise (no prompts when reading a piped script).
#pragma once

#include <istream>
#include <string>

namespace floe {

// What one read brought: a line (without its line break), Ctrl-C at the prompt, or the end
// of the input.
struct InputLine {
  enum class Kind { kText, kInterrupted, kEnd };
  Kind kind = Kind::kEnd;
  std::string text;
};

class LineReader {
 public:
  virtual ~LineReader() = default;
  virtual InputLine read_line(const std::string& prompt) = 0;
};

class StreamLineReader : public LineReader {
 public:
  explicit StreamLineReader(std::istream& in) : in_(in) {}
  InputLine read_line(const std::string& prompt) override;

 private:
  std::istream& in_;
};

// Line editing and history kept in ~/.floe_history. Readline's callback interface, so that
// waiting for a key also watches the interrupt pipe (shell/interrupt.h): Ctrl-C drops the
// line being typed, as in psql.
class ReadlineLineReader : public LineReader {
 public:
  ReadlineLineReader();
  InputLine read_line(const std::string& prompt) override;

 private:
  std::string history_path_;
};

}  // namespace floe
