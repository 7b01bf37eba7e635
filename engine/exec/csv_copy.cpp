#include "engine/exec/csv_copy.h"

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <memory>

#include "engine/exec/csv_reader.h"
#include "engine/exec/csv_writer.h"
#include "runtime/cancellation.h"
#include "storage/error.h"

namespace floe {

namespace {

constexpr size_t kWriteBufferSize = 1 << 20;

std::string line_context(const Table& table, uint64_t line) {
  return "COPY " + table.name() + ", line " + std::to_string(line);
}

}  // namespace

uint64_t copy_from_file(Table& table, const std::vector<size_t>& columns, const std::string& path,
                        const CsvOptions& options) {
  CsvReader reader(path, options);
  const std::vector<ColumnDef>& defs = table.columns();
  const uint64_t rows_before = table.row_count();
  TableAppender appender(table);
  std::vector<Value> row(defs.size());
  for (size_t c = 0; c < defs.size(); ++c) row[c] = Value::null(defs[c].type);
  auto read_record = [&] {
    try {
      return reader.next_record();
    } catch (const Error& e) {  // unterminated quote, read failure
      throw Error(line_context(table, reader.line()) + ": " + e.what());
    }
  };
  uint64_t loaded = 0;
  CancelPoll poll(options.cancel);
  try {
    if (options.header) read_record();
    while (read_record()) {
      poll.tick();
      const std::vector<CsvField>& fields = reader.fields();
      size_t count = fields.size();
      // TPC-H .tbl lines end with a delimiter: one extra empty field is not data.
      if (count == columns.size() + 1 && fields.back().empty_unquoted) --count;
      if (count > columns.size()) {
        throw Error(line_context(table, reader.line()) + ": extra data after last expected column");
      }
      if (count < columns.size()) {
        throw Error(line_context(table, reader.line()) + ": missing data for column \"" +
                    defs[columns[count]].name + "\"");
      }
      for (size_t i = 0; i < count; ++i) {
        size_t column = columns[i];
        try {
          row[column] = fields[i].null ? Value::null(defs[column].type)
                                       : parse_value(fields[i].text, defs[column].type);
        } catch (const Error& e) {
          throw Error(line_context(table, reader.line()) + ", column " + defs[column].name + ": " +
                      e.what());
        }
      }
      try {
        if (options.complete_row) {
          std::vector<Value> complete = row;
          options.complete_row(complete);
          appender.append_row(complete);
        } else {
          appender.append_row(row);
        }
      } catch (const Error& e) {
        throw Error(line_context(table, reader.line()) + ": " + e.what());
      }
      ++loaded;
      if (options.progress && loaded % kCopyProgressInterval == 0) options.progress(loaded);
    }
  } catch (...) {
    if (options.take_back_on_error) table.truncate(rows_before);
    throw;
  }
  return loaded;
}

uint64_t copy_to_file(const QueryOutput& output, const std::string& path,
                      const CsvOptions& options) {
  std::unique_ptr<std::FILE, int (*)(std::FILE*)> file(std::fopen(path.c_str(), "wb"), std::fclose);
  if (!file) {
    throw Error("could not open file \"" + path + "\" for writing: " + std::strerror(errno));
  }
  std::string buffer;
  buffer.reserve(kWriteBufferSize + 4096);
  auto flush = [&] {
    if (std::fwrite(buffer.data(), 1, buffer.size(), file.get()) != buffer.size()) {
      throw Error("could not write to file \"" + path + "\": " + std::strerror(errno));
    }
    buffer.clear();
  };
  if (options.header) {
    for (size_t c = 0; c < output.column_names.size(); ++c) {
      if (c) buffer += options.delimiter;
      append_field(buffer, output.column_names[c], options);
    }
    buffer += '\n';
  }
  for (const std::vector<Value>& row : output.rows) {
    for (size_t c = 0; c < row.size(); ++c) {
      if (c) buffer += options.delimiter;
      if (row[c].is_null()) {
        buffer += options.null_string;
      } else {
        append_field(buffer, row[c].to_string(), options);
      }
    }
    buffer += '\n';
    if (buffer.size() >= kWriteBufferSize) flush();
  }
  flush();
  return output.rows.size();
}

}  // namespace floe
