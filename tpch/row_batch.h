// Rows of one table collected in column buffers of the table's physical types, so that
// generator threads can fill batches in parallel and one thread appends them in order.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "storage/table.h"

namespace floe::tpch {

class RowBatch {
 public:
  explicit RowBatch(const std::vector<ColumnDef>& columns);

  // Each row sets every column in order, then calls end_row(). Throws floe::Error when a
  // value does not fit the column's type.
  // An exact number `value` * 10^-scale (integers have scale 0, money in cents scale 2).
  void add_number(int64_t value, unsigned scale = 0);
  void add_date(int32_t days);
  void add_string(std::string_view text);
  void end_row();

  uint64_t row_count() const { return row_count_; }
  // Appends the rows in order; long strings are copied into the table's string heap.
  void append_to(TableAppender& appender) const;

 private:
  struct StringSpan {
    uint64_t offset;
    uint32_t length;
  };
  struct Column {
    SqlType type;
    size_t width;
    std::vector<uint8_t> values;      // physical values; unused for strings
    std::vector<StringSpan> strings;  // string columns: spans of `text_`
  };
  Column& next_column();
  void push_bytes(Column& column, const void* bytes);

  std::vector<std::string> names_;
  std::vector<Column> columns_;
  std::string text_;
  size_t current_ = 0;
  uint64_t row_count_ = 0;
};

}  // namespace floe::tpch
