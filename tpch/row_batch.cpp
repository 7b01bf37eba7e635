#include "tpch/row_batch.h"

#include <cstring>

#include "storage/decimal.h"
#include "storage/error.h"
#include "storage/string_ref.h"

namespace floe::tpch {

RowBatch::RowBatch(const std::vector<ColumnDef>& columns) {
  for (const ColumnDef& def : columns) {
    names_.push_back(def.name);
    columns_.push_back({def.type, physical_size(def.type.physical()), {}, {}});
  }
}

RowBatch::Column& RowBatch::next_column() {
  if (current_ >= columns_.size()) throw Error("too many values in generated row");
  return columns_[current_];
}

void RowBatch::push_bytes(Column& column, const void* bytes) {
  const auto* begin = static_cast<const uint8_t*>(bytes);
  column.values.insert(column.values.end(), begin, begin + column.width);
  ++current_;
}

void RowBatch::add_number(int64_t value, unsigned scale) {
  Column& column = next_column();
  const SqlType& type = column.type;
  const std::string& name = names_[current_];
  int128_t scaled = value;
  if (type.id == TypeId::kDecimal) {
    if (type.scale < scale) throw Error("column \"" + name + "\" has too small a scale");
    auto rescaled = rescale_decimal(value, scale, type.precision, type.scale);
    if (!rescaled) throw Error(std::string(kNumericOverflow) + " in column \"" + name + "\"");
    scaled = *rescaled;
  } else if (!type.is_integer() || scale != 0) {
    throw Error("column \"" + name + "\" does not take a generated " + std::to_string(scale) +
                "-decimal number");
  }
  switch (type.physical()) {
    case PhysicalType::kInt16: {
      auto narrow = static_cast<int16_t>(scaled);
      if (narrow != scaled) throw Error(type.to_string() + " out of range");
      return push_bytes(column, &narrow);
    }
    case PhysicalType::kInt32: {
      auto narrow = static_cast<int32_t>(scaled);
      if (narrow != scaled) throw Error(type.to_string() + " out of range");
      return push_bytes(column, &narrow);
    }
    case PhysicalType::kInt64: {
      auto narrow = static_cast<int64_t>(scaled);
      return push_bytes(column, &narrow);
    }
    case PhysicalType::kInt128:
      return push_bytes(column, &scaled);
    default:
      throw Error("column \"" + name + "\" does not take a number");
  }
}

void RowBatch::add_date(int32_t days) {
  Column& column = next_column();
  if (column.type.id != TypeId::kDate)
    throw Error("column \"" + names_[current_] + "\" does not take a date");
  push_bytes(column, &days);
}

void RowBatch::add_string(std::string_view text) {
  Column& column = next_column();
  const SqlType& type = column.type;
  if (!type.is_string()) throw Error("column \"" + names_[current_] + "\" does not take a string");
  // CHAR values are stored without trailing blanks (storage/types.h).
  if (type.id == TypeId::kChar) {
    while (!text.empty() && text.back() == ' ') text.remove_suffix(1);
  }
  if (type.length != 0 && text.size() > type.length)
    throw Error("value too long for type " + type.to_string());
  column.strings.push_back({text_.size(), static_cast<uint32_t>(text.size())});
  text_.append(text);
  ++current_;
}

void RowBatch::end_row() {
  if (current_ != columns_.size()) throw Error("too few values in generated row");
  current_ = 0;
  ++row_count_;
}

void RowBatch::append_to(TableAppender& appender) const {
  for (uint64_t row = 0; row < row_count_; ++row) {
    appender.begin_row();
    for (size_t c = 0; c < columns_.size(); ++c) {
      const Column& column = columns_[c];
      if (column.type.is_string()) {
        const StringSpan& span = column.strings[row];
        StringRef text = StringRef::from(std::string_view(text_.data() + span.offset, span.length));
        appender.set(c, &text);
      } else {
        appender.set(c, column.values.data() + row * column.width);
      }
    }
    appender.end_row();
  }
}

}  // namespace floe::tpch
