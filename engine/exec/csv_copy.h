// COPY FROM / COPY TO in PostgreSQL's CSV and text-with-delimiter forms.
#pragma once

#include <atomic>
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "engine/exec/query_executor.h"
#include "storage/table.h"

namespace floe {

enum class CopyFormat : uint8_t {
  kCsv,   // quoting with `quote` ("" inside quotes is one quote); NULL = unquoted null_string
  kText,  // no quoting; backslash escapes (\t \n \\ ...); PostgreSQL's NULL string is "\N"
};

// Rows between two calls of CsvOptions::progress.
constexpr uint64_t kCopyProgressInterval = 1'000'000;

struct CsvOptions {
  CopyFormat format = CopyFormat::kCsv;
  char delimiter = ',';
  bool header = false;
  char quote = '"';
  std::string null_string;  // a field equal to this (unquoted) is NULL
  // Optional: called with the rows loaded so far every kCopyProgressInterval rows, so a
  // long load does not look hung.
  std::function<void(uint64_t rows)> progress;
  // Optional: called with every parsed row (columns not loaded are NULL) before it is
  // appended, to fill in defaults and check constraints (engine/api/row_constraints.h).
  std::function<void(std::vector<Value>& row)> complete_row;
  // Optional: COPY FROM stops with floe::Error once this is set (runtime/cancellation.h).
  const std::atomic<bool>* cancel = nullptr;
  // Whether COPY FROM truncates the table back on an error; false when the caller's
  // transaction takes the rows back (its rollback waits for the readers beside).
  bool take_back_on_error = true;
};

// Appends the file's rows to `columns` of `table` (other columns NULL). All or nothing: on
// any error the table is truncated back (unless the caller takes the rows back,
// CsvOptions::take_back_on_error) and floe::Error names the line and column. A
// trailing delimiter at the end of every line (TPC-H .tbl files) is accepted.
uint64_t copy_from_file(Table& table, const std::vector<size_t>& columns, const std::string& path,
                        const CsvOptions& options);

// Writes a query result; returns the number of rows written.
uint64_t copy_to_file(const QueryOutput& output, const std::string& path,
                      const CsvOptions& options);

}  // namespace floe
