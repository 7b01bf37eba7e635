// What a table's storage looks like, per column: how many chunks are hot and frozen, which
// compression schemes the frozen ones use, and the bytes before and after compression. The
// SQL system table floe_storage shows it (docs/sql.md "Storage").
#pragma once

#include <array>
#include <cstdint>
#include <string>
#include <vector>

#include "storage/data_block_format.h"
#include "storage/table.h"

namespace floe {

struct ColumnStorage {
  std::string column;
  uint64_t hot_chunks = 0;
  uint64_t frozen_chunks = 0;
  // Frozen chunks per scheme, indexed by block_format::Scheme.
  std::array<uint64_t, block_format::kSchemeCount> schemes{};
  // The bytes the column's rows take as hot chunks (values, validity bitmaps, out-of-line
  // string bytes), and the bytes they take as stored now (hot chunks as they are, frozen
  // ones as their Data Block sections).
  uint64_t uncompressed_bytes = 0;
  uint64_t stored_bytes = 0;
};

std::vector<ColumnStorage> storage_report(const Table& table);

}  // namespace floe
