#include "storage/storage_report.h"

#include "storage/data_block.h"

namespace floe {

namespace {

// A hot chunk's bytes of one column, counted as a Data Block counts a column's uncompressed
// size (ColumnHeader::uncompressed_bytes): values, validity bitmap, out-of-line strings.
uint64_t hot_bytes(const HotChunk& chunk, size_t column, const ColumnDef& def) {
  uint64_t rows = chunk.size();
  uint64_t bytes = rows * physical_size(def.type.physical());
  if (chunk.validity(column)) bytes += (rows + 63) / 64 * 8;
  if (def.type.physical() == PhysicalType::kString) {
    const auto* strings = reinterpret_cast<const StringRef*>(chunk.data(column));
    for (uint64_t row = 0; row < rows; ++row)
      if (!strings[row].is_inline()) bytes += strings[row].length;
  }
  return bytes;
}

}  // namespace

std::vector<ColumnStorage> storage_report(const Table& table) {
  std::vector<ColumnStorage> report(table.columns().size());
  for (size_t c = 0; c < report.size(); ++c) report[c].column = table.columns()[c].name;
  for (size_t k = 0; k < table.chunk_count(); ++k) {
    const TableChunk& chunk = table.chunk(k);
    for (size_t c = 0; c < report.size(); ++c) {
      ColumnStorage& column = report[c];
      if (chunk.frozen()) {
        BlockColumn view = chunk.block()->column(c);
        ++column.frozen_chunks;
        ++column.schemes[static_cast<size_t>(view.scheme())];
        column.uncompressed_bytes += view.uncompressed_bytes();
        column.stored_bytes += view.compressed_bytes();
      } else {
        uint64_t bytes = hot_bytes(*chunk.hot(), c, table.columns()[c]);
        ++column.hot_chunks;
        column.uncompressed_bytes += bytes;
        column.stored_bytes += bytes;
      }
    }
  }
  return report;
}

}  // namespace floe
