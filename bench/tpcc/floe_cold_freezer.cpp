#include "bench/tpcc/floe_cold_freezer.h"

#include <vector>

#include "engine/api/database.h"
#include "engine/api/floe_internal.h"

namespace floe::tpcc {

namespace {

// Whether every line of a full hot chunk has its delivery date (a deleted line, of a rolled
// back New-Order, counts as done). Undelivered lines belong to the newest orders, so looking
// from the chunk's end finds one soonest.
bool all_delivered(const Table& table, size_t chunk, size_t delivery_column) {
  const uint64_t first = static_cast<uint64_t>(chunk) << kChunkShift;
  for (uint64_t row = kChunkCapacity; row-- > 0;) {
    const uint64_t row_id = first | row;
    if (table.value_at(row_id, delivery_column).is_null() && !table.row_deleted(row_id))
      return false;
  }
  return true;
}

size_t frozen_chunks(const Table& table) {
  size_t frozen = 0;
  for (size_t c = 0; c < table.chunk_count(); ++c) frozen += table.chunk(c).frozen();
  return frozen;
}

}  // namespace

size_t freeze_cold_order_lines(api::Database& public_database) {
  Database& database = api::EngineAccess::database(public_database);
  auto statements = database.lock_statements();
  Table& table = *database.catalog().find_table("order_line");
  const size_t delivery_column = *table.find_column("ol_delivery_d");
  std::vector<size_t> cold;
  for (size_t c : table.full_chunks_filled_before(std::chrono::steady_clock::time_point::max())) {
    const ChunkVersions* versions = table.chunk(c).versions();
    if (versions && versions->chained_rows()) continue;
    if (all_delivered(table, c, delivery_column)) cold.push_back(c);
  }
  const size_t before = frozen_chunks(table);
  table.freeze_chunks(cold);
  return frozen_chunks(table) - before;
}

}  // namespace floe::tpcc
