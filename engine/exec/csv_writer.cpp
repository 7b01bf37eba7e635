#include "engine/exec/csv_writer.h"

namespace floe {

namespace {

bool needs_quotes(std::string_view text, const CsvOptions& options) {
  if (text == options.null_string || text == "\\.") return true;
  for (char c : text) {
    if (c == options.delimiter || c == options.quote || c == '\n' || c == '\r') return true;
  }
  return false;
}

}  // namespace

void append_field(std::string& out, std::string_view text, const CsvOptions& options) {
  if (options.format == CopyFormat::kText) {
    for (char c : text) {
      switch (c) {
        case '\\':
          out += "\\\\";
          break;
        case '\n':
          out += "\\n";
          break;
        case '\r':
          out += "\\r";
          break;
        case '\t':
          out += "\\t";
          break;
        default:
          if (c == options.delimiter) out += '\\';
          out += c;
      }
    }
    return;
  }
  if (!needs_quotes(text, options)) {
    out += text;
    return;
  }
  out += options.quote;
  for (char c : text) {
    if (c == options.quote) out += options.quote;
    out += c;
  }
  out += options.quote;
}

}  // namespace floe
