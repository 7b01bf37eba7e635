// A benchmark run: population, `threads` terminals running the mix for `duration` seconds
// without keying or think time, retrying a transaction after a conflict (counted as an
// abort), a progress line on stderr, then the consistency check.
#pragma once

#include <array>
#include <cstdint>
#include <string>

#include "bench/tpcc/tpcc_backend.h"
#include "bench/tpcc/tpcc_consistency.h"
#include "bench/tpcc/tpcc_schema_sizes.h"
#include "bench/tpcc/tpcc_transactions.h"

namespace floe::tpcc {

struct RunOptions {
  Engine engine = Engine::kFloe;
  Api api = Api::kSql;
  int warehouses = 5;
  int threads = 1;
  double duration_seconds = 30;
  uint64_t seed = 1;
  Scale scale;
  bool progress = true;  // lines on stderr
  FreezeMode freeze = FreezeMode::kAuto;
};

struct RunResult {
  std::string engine;
  double load_seconds = 0;
  double seconds = 0;      // of the measurement
  uint64_t committed = 0;  // every transaction, New-Orders rolled back by design included
  uint64_t aborted = 0;    // conflicts, retried
  std::array<uint64_t, kTransactionTypes> committed_by_type{};
  uint64_t new_order_rollbacks = 0;  // the 1% with an unused item
  ConsistencyResult consistency;
  std::string statement_profile;  // Backend::statement_profile
  // FreezeMode::kCold: order_line chunks frozen after the population, and during the run.
  uint64_t chunks_frozen_at_start = 0;
  uint64_t chunks_frozen_during_run = 0;
  double tps() const { return seconds > 0 ? static_cast<double>(committed) / seconds : 0; }
  double tpmc() const {
    return seconds > 0 ? static_cast<double>(committed_by_type[0]) * 60 / seconds : 0;
  }
};

RunResult run_tpcc(const RunOptions& options);

// The result as JSON, and as the lines of the report on stdout.
std::string to_json(const RunOptions& options, const RunResult& result);
std::string to_report(const RunResult& result);

}  // namespace floe::tpcc
