// The initial population of clause 4.3.3.1 for `warehouses` warehouses, loaded in bulk
// through the backend's TableLoaders (after the tables are created), with a progress line.
#pragma once

#include <functional>
#include <string>

#include "bench/tpcc/tpcc_backend.h"
#include "bench/tpcc/tpcc_random.h"
#include "bench/tpcc/tpcc_schema_sizes.h"

namespace floe::tpcc {

// Called after each bulk load: table name and the rows loaded into it so far.
using LoadProgress = std::function<void(const std::string& table, uint64_t rows)>;

// Creates the nine tables, loads them and makes the secondary indexes. `now` is the load
// time ('YYYY-MM-DD HH:MM:SS') for C_SINCE, H_DATE and O_ENTRY_D.
void populate(Backend& backend, const Scale& scale, int warehouses, uint64_t seed,
              const NurandConstants& load_c, const std::string& now, const LoadProgress& progress);

// The current UTC time as 'YYYY-MM-DD HH:MM:SS'.
std::string current_timestamp();

}  // namespace floe::tpcc
