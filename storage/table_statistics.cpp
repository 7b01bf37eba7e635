#include "storage/table_statistics.h"

#include <bit>
#include <cstring>

#include "storage/distinct_sketch.h"
#include "storage/interval.h"
#include "storage/string_ref.h"
#include "storage/table.h"

namespace floe {

namespace {

uint64_t hash_of(uint8_t value) {
  return hash_integer(value);
}
uint64_t hash_of(int16_t value) {
  return hash_integer(static_cast<uint64_t>(value));
}
uint64_t hash_of(int32_t value) {
  return hash_integer(static_cast<uint64_t>(value));
}
uint64_t hash_of(int64_t value) {
  return hash_integer(static_cast<uint64_t>(value));
}
uint64_t hash_of(int128_t value) {
  auto bits = static_cast<unsigned __int128>(value);
  return hash_integer(static_cast<uint64_t>(bits) ^
                      hash_integer(static_cast<uint64_t>(bits >> 64)));
}
uint64_t hash_of(double value) {
  return hash_integer(std::bit_cast<uint64_t>(value == 0 ? 0.0 : value));  // -0 = 0
}
uint64_t hash_of(const StringRef& value) {
  return hash_bytes(value.view());
}
uint64_t hash_of(const Interval& value) {
  return hash_integer(
      hash_integer(static_cast<uint64_t>(value.micros)) ^
      (uint64_t{static_cast<uint32_t>(value.months)} << 32 | static_cast<uint32_t>(value.days)));
}

bool less(const StringRef& a, const StringRef& b) {
  return a.view() < b.view();
}
template <typename T>
bool less(const T& a, const T& b) {
  return a < b;
}

// One pass over the column: null count, distinct sketch and (for ordered types) min/max.
template <typename T, bool kOrdered>
void scan_column(const Table& table, size_t column, ColumnStatistics& out) {
  DistinctSketch sketch;
  const SqlType type = table.columns()[column].type;
  T min{}, max{};
  bool any = false;
  TableChunk::Scratch scratch;
  for (size_t c = 0; c < table.chunk_count(); ++c) {
    const TableChunk& chunk = table.chunk(c);
    const uint32_t rows = table.readable_rows(c);  // before the arrays (a writer may append)
    auto array = chunk.read_column(column, type.physical(), scratch);
    const T* values = reinterpret_cast<const T*>(array.data);
    const ChunkVersions* versions = chunk.versions();
    for (uint32_t row = 0; row < rows; ++row) {
      if (versions && versions->deleted(row)) continue;  // the newest state's rows only
      if (array.validity && !(array.validity[row >> 6] >> (row & 63) & 1)) {
        ++out.null_count;
        continue;
      }
      const T& value = values[row];
      sketch.add_hash(hash_of(value));
      if constexpr (kOrdered) {
        if (!any || less(value, min)) min = value;
        if (!any || less(max, value)) max = value;
      }
      any = true;
    }
  }
  out.distinct_count = any ? sketch.estimate() : 0;
  if (kOrdered && any) {
    out.min = Value::read_physical(&min, type);
    out.max = Value::read_physical(&max, type);
  }
}

}  // namespace

ColumnStatistics compute_column_statistics(const Table& table, size_t column) {
  ColumnStatistics out;
  out.row_count = table.live_row_count();
  switch (table.columns()[column].type.physical()) {
    case PhysicalType::kBool:
      scan_column<uint8_t, true>(table, column, out);
      break;
    case PhysicalType::kInt16:
      scan_column<int16_t, true>(table, column, out);
      break;
    case PhysicalType::kInt32:
      scan_column<int32_t, true>(table, column, out);
      break;
    case PhysicalType::kInt64:
      scan_column<int64_t, true>(table, column, out);
      break;
    case PhysicalType::kInt128:
      scan_column<int128_t, true>(table, column, out);
      break;
    case PhysicalType::kDouble:
      scan_column<double, true>(table, column, out);
      break;
    case PhysicalType::kInterval:
      scan_column<Interval, false>(table, column, out);
      break;
    case PhysicalType::kString:
      scan_column<StringRef, true>(table, column, out);
      break;
  }
  return out;
}

}  // namespace floe
