// Streaming record reader for COPY FROM: reads the file in large blocks and splits records
// into fields in place (PostgreSQL CSV and text rules), without a std::string per line.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "engine/exec/csv_copy.h"

namespace floe {

struct CsvField {
  std::string_view text;  // unquoted / unescaped; valid until the next next_record()
  bool null = false;      // equal to the NULL string (and, in CSV, not quoted)
  bool empty_unquoted = false;
};

class CsvReader {
 public:
  // Throws floe::Error when the file cannot be opened.
  CsvReader(const std::string& path, const CsvOptions& options);
  ~CsvReader();
  CsvReader(const CsvReader&) = delete;
  CsvReader& operator=(const CsvReader&) = delete;

  // Reads the next record; false at the end of the file.
  bool next_record();
  const std::vector<CsvField>& fields() const { return fields_; }
  // 1-based line number on which the current record starts.
  uint64_t line() const { return line_; }

 private:
  // Finds the end of the record starting at pos_ (the newline, or end_ at end of file);
  // returns nullptr when the buffer holds no complete record yet.
  char* find_record_end(uint64_t& newlines_inside);
  // Moves the unread bytes to the front and reads more; false at end of file.
  bool refill();
  void split_csv(char* begin, char* end);
  void split_text(char* begin, char* end);

  CsvOptions options_;
  int fd_ = -1;
  std::string path_;
  std::unique_ptr<char[]> buffer_;
  size_t capacity_ = 0;
  char* pos_ = nullptr;
  char* end_ = nullptr;
  bool eof_ = false;
  uint64_t next_line_ = 1;
  uint64_t line_ = 0;
  std::vector<CsvField> fields_;
};

}  // namespace floe
