#include "engine/api/result_text.h"

#include <algorithm>
#include <cstdio>
#include <utility>

#include "engine/exec/csv_writer.h"
#include "storage/utf8.h"

namespace floe {

namespace {

// Terminal columns of UTF-8 text: one per character.
size_t display_width(std::string_view text) {
  return utf8_length(text);
}

std::string pad(std::string_view text, size_t width, bool right_align) {
  std::string padding(width - display_width(text), ' ');
  return right_align ? padding + std::string(text) : std::string(text) + padding;
}

std::string center(std::string_view text, size_t width) {
  size_t space = width - display_width(text);
  return std::string(space / 2, ' ') + std::string(text) + std::string(space - space / 2, ' ');
}

// One-line cell text: line breaks would tear a box or a markdown table apart.
std::string cell_text(const Value& value) {
  std::string text = value.to_string();
  std::string out;
  for (char c : text) {
    if (c == '\n') {
      out += "\\n";
    } else if (c == '\r') {
      out += "\\r";
    } else {
      out += c;
    }
  }
  return out;
}

std::vector<std::vector<std::string>> cell_texts(const ResultTable& table) {
  std::vector<std::vector<std::string>> cells;
  cells.reserve(table.rows.size());
  for (const std::vector<Value>& row : table.rows) {
    std::vector<std::string> line;
    line.reserve(row.size());
    for (const Value& value : row) line.push_back(cell_text(value));
    cells.push_back(std::move(line));
  }
  return cells;
}

std::string repeat(std::string_view piece, size_t count) {
  std::string out;
  for (size_t i = 0; i < count; ++i) out += piece;
  return out;
}

std::string box_rule(const std::vector<size_t>& widths, std::string_view left,
                     std::string_view middle, std::string_view right) {
  std::string line(left);
  for (size_t c = 0; c < widths.size(); ++c) {
    if (c) line += middle;
    line += repeat("─", widths[c] + 2);
  }
  return line + std::string(right) + "\n";
}

// psql's footer: "(1 row)", "(3 rows)".
std::string row_count_footer(size_t rows) {
  return rows == 1 ? "(1 row)\n" : "(" + std::to_string(rows) + " rows)\n";
}

// A result without columns (SELECT FROM t) as psql shows it: the aligned format draws an
// empty header ("--"), CSV has only its empty header line; the other modes, whose rows
// would be invisible, give the row count.
std::string format_without_columns(const ResultTable& table, OutputMode mode) {
  switch (mode) {
    case OutputMode::kBox:
      return "--\n" + row_count_footer(table.rows.size());
    case OutputMode::kCsv:
      return "\n";
    case OutputMode::kMarkdown:
    case OutputMode::kLine:
    case OutputMode::kList:
      break;
  }
  return row_count_footer(table.rows.size());
}

std::string format_box(const ResultTable& table) {
  size_t columns = table.column_names.size();
  std::vector<std::string> type_names;
  std::vector<size_t> widths(columns);
  for (size_t c = 0; c < columns; ++c) {
    type_names.push_back(table.column_types[c].to_string());
    widths[c] = std::max(display_width(table.column_names[c]), display_width(type_names[c]));
  }
  auto cells = cell_texts(table);
  for (const auto& row : cells)
    for (size_t c = 0; c < columns; ++c) widths[c] = std::max(widths[c], display_width(row[c]));

  std::string out = box_rule(widths, "┌", "┬", "┐");
  for (const std::vector<std::string>* header : {&table.column_names, &std::as_const(type_names)}) {
    out += "│";
    for (size_t c = 0; c < columns; ++c) out += " " + center((*header)[c], widths[c]) + " │";
    out += "\n";
  }
  out += box_rule(widths, "├", "┼", "┤");
  for (size_t r = 0; r < cells.size(); ++r) {
    out += "│";
    for (size_t c = 0; c < columns; ++c) {
      bool right = table.column_types[c].is_numeric() && !table.rows[r][c].is_null();
      out += " " + pad(cells[r][c], widths[c], right) + " │";
    }
    out += "\n";
  }
  out += box_rule(widths, "└", "┴", "┘");
  return out + row_count_footer(cells.size());
}

std::string format_csv(const ResultTable& table) {
  CsvOptions options;
  std::string out;
  for (size_t c = 0; c < table.column_names.size(); ++c) {
    if (c) out += ',';
    append_field(out, table.column_names[c], options);
  }
  out += '\n';
  for (const std::vector<Value>& row : table.rows) {
    for (size_t c = 0; c < row.size(); ++c) {
      if (c) out += ',';
      if (!row[c].is_null()) append_field(out, row[c].to_string(), options);
    }
    out += '\n';
  }
  return out;
}

std::string format_markdown(const ResultTable& table) {
  size_t columns = table.column_names.size();
  std::vector<size_t> widths(columns, 3);
  auto cells = cell_texts(table);
  for (size_t c = 0; c < columns; ++c)
    widths[c] = std::max(widths[c], display_width(table.column_names[c]));
  for (const auto& row : cells)
    for (size_t c = 0; c < columns; ++c) widths[c] = std::max(widths[c], display_width(row[c]));
  std::string out = "|";
  for (size_t c = 0; c < columns; ++c)
    out += " " + pad(table.column_names[c], widths[c], false) + " |";
  out += "\n|";
  for (size_t c = 0; c < columns; ++c) {
    bool right = table.column_types[c].is_numeric();
    out += right ? std::string(widths[c] + 1, '-') + ":|" : std::string(widths[c] + 2, '-') + "|";
  }
  out += "\n";
  for (const auto& row : cells) {
    out += "|";
    for (size_t c = 0; c < columns; ++c)
      out += " " + pad(row[c], widths[c], table.column_types[c].is_numeric()) + " |";
    out += "\n";
  }
  return out;
}

std::string format_line(const ResultTable& table) {
  size_t name_width = 0;
  for (const std::string& name : table.column_names)
    name_width = std::max(name_width, display_width(name));
  std::string out;
  for (size_t r = 0; r < table.rows.size(); ++r) {
    if (r) out += "\n";
    for (size_t c = 0; c < table.column_names.size(); ++c)
      out += pad(table.column_names[c], name_width, true) + " = " + table.rows[r][c].to_string() +
             "\n";
  }
  return out;
}

std::string format_list(const ResultTable& table) {
  std::string out;
  for (size_t c = 0; c < table.column_names.size(); ++c)
    out += (c ? "|" : "") + table.column_names[c];
  out += "\n";
  for (const std::vector<Value>& row : table.rows) {
    for (size_t c = 0; c < row.size(); ++c) out += (c ? "|" : "") + row[c].to_string();
    out += "\n";
  }
  return out;
}

std::string milliseconds(double ms) {
  char buffer[32];
  std::snprintf(buffer, sizeof buffer, "%.3f ms", ms);
  return buffer;
}

}  // namespace

ResultTable result_table(const Result& result) {
  ResultTable table;
  for (size_t c = 0; c < result.column_count(); ++c) {
    table.column_names.push_back(result.column_name(c));
    table.column_types.push_back(result.column_type(c));
  }
  table.rows = result.rows();
  return table;
}

std::string format_result(const ResultTable& table, OutputMode mode) {
  if (table.column_names.empty()) return format_without_columns(table, mode);
  switch (mode) {
    case OutputMode::kBox:
      return format_box(table);
    case OutputMode::kCsv:
      return format_csv(table);
    case OutputMode::kMarkdown:
      return format_markdown(table);
    case OutputMode::kLine:
      return format_line(table);
    case OutputMode::kList:
      return format_list(table);
  }
  return "";
}

}  // namespace floe

namespace floe::api {

std::string Timings::to_string() const {
  const double total = parse_ms + plan_ms + codegen_ms + compile_ms + execute_ms;
  return "Time: parse " + milliseconds(parse_ms) + ", plan " + milliseconds(plan_ms) +
         ", codegen " + milliseconds(codegen_ms) + ", compile " + milliseconds(compile_ms) +
         ", execute " + milliseconds(execute_ms) + ", total " + milliseconds(total) + "\n";
}

std::optional<OutputMode> parse_output_mode(std::string_view name) {
  for (OutputMode mode : {OutputMode::kBox, OutputMode::kCsv, OutputMode::kMarkdown,
                          OutputMode::kLine, OutputMode::kList}) {
    if (output_mode_name(mode) == name) return mode;
  }
  return std::nullopt;
}

std::string_view output_mode_name(OutputMode mode) {
  switch (mode) {
    case OutputMode::kBox:
      return "box";
    case OutputMode::kCsv:
      return "csv";
    case OutputMode::kMarkdown:
      return "markdown";
    case OutputMode::kLine:
      return "line";
    case OutputMode::kList:
      return "list";
  }
  return "box";
}

}  // namespace floe::api
