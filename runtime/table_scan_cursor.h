// The batch interface compiled scans read through (DESIGN.md "Scans"). A cursor walks a
// row-id range of one table and hands out batches of consecutive rows that never cross a
// chunk boundary. Hot chunks are handed over without copying: the batch's column pointers
// point into the chunk's arrays and its validity pointers are the chunk's bitmaps.
// (Data Blocks and SARG restrictions will plug in here: they need the requested columns and
// a vector size, which the constructor already takes.)
#pragma once

#include <cstdint>
#include <vector>

#include "runtime/runtime_abi.h"
#include "storage/table.h"

namespace floe {

class TableScanCursor {
 public:
  // `columns` are the table's column indexes, in the order the batch presents them.
  TableScanCursor(const Table& table, std::vector<size_t> columns, uint32_t vector_size = 8192);

  // Restarts on row ids [begin_row, end_row) (chunk << 16 | row). Ids past the end of the
  // table are simply empty. Returns false when begin_row > end_row.
  bool open(uint64_t begin_row, uint64_t end_row);
  // Fills `batch` with the next up to vector-size rows; returns the count, 0 when the range
  // is exhausted. The batch's arrays stay valid until the next call.
  uint32_t next(FloeScanBatch& batch);

 private:
  const Table& table_;
  std::vector<size_t> columns_;
  std::vector<size_t> widths_;
  uint32_t vector_size_;
  uint64_t position_ = 0;
  uint64_t end_ = 0;
  std::vector<const void*> column_pointers_;
  std::vector<const uint64_t*> validity_pointers_;
};

}  // namespace floe
