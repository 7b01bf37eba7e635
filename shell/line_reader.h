// Where the shell's input lines come from: GNU readline with persistent history on a
// terminal, plain std::getline otherwise (no prompts when reading a piped script).
#pragma once

#include <istream>
#include <optional>
#include <string>

namespace floe {

class LineReader {
 public:
  virtual ~LineReader() = default;
  // The next line without its line break; nullopt at the end of input.
  virtual std::optional<std::string> read_line(const std::string& prompt) = 0;
};

class StreamLineReader : public LineReader {
 public:
  explicit StreamLineReader(std::istream& in) : in_(in) {}
  std::optional<std::string> read_line(const std::string& prompt) override;

 private:
  std::istream& in_;
};

// Line editing and history kept in ~/.floe_history.
class ReadlineLineReader : public LineReader {
 public:
  ReadlineLineReader();
  std::optional<std::string> read_line(const std::string& prompt) override;

 private:
  std::string history_path_;
};

}  // namespace floe
