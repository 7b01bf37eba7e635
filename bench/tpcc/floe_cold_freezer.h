// Freezing cold TPC-C data during a run (`floe-tpcc --freeze cold`), after the Data Blocks
// paper's §5.3: old records are compressed into Data Blocks while the transactions go on, and
// the hot, changing data stays in uncompressed chunks.
#pragma once

#include <cstddef>

namespace floe::api {
class Database;
}

namespace floe::tpcc {

// Freezes order_line's cold chunks: full hot chunks whose lines are all delivered (Delivery
// is the only transaction that changes an order line, so nothing will change their rows
// again) and without version chains (Table::freeze_chunks keeps those hot until garbage
// collection took them). Takes the database's statement lock, like the background freezer:
// transactions wait between their statements. Returns the number of chunks frozen.
size_t freeze_cold_order_lines(api::Database& database);

}  // namespace floe::tpcc
