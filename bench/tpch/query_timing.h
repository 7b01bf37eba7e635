// Runs one TPC-H query script (Q15 is CREATE VIEW; SELECT; DROP VIEW) several times on
// floe or on DuckDB and keeps the median timings.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "bench/peers/duckdb_peer.h"
#include "engine/api/database.h"

namespace floe::tpch {

struct FloeTiming {
  double compile_ms = 0;  // median of parse + plan + codegen + LLVM compile, whole script
  double exec_ms = 0;     // median of the pipelines' run time, whole script
  Result result;          // the last statement result with rows, from the last run
};

// The statements of a script, each ending with its ';'.
std::vector<std::string> split_statements(std::string_view script);

// `runs` >= 1. Throws floe::Error when a statement fails.
FloeTiming time_floe(Connection& connection, const std::vector<std::string>& statements, int runs);

// Median wall time in ms of the whole script on DuckDB. Throws floe::Error.
double time_duckdb(bench::DuckDbPeer& duckdb, const std::vector<std::string>& statements, int runs);

double median(std::vector<double> values);

}  // namespace floe::tpch
