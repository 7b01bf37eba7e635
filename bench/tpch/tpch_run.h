// `floe-tpch run`: generate and load TPC-H data, run the queries on floe (and on DuckDB
// when its library is available), validate against the reference answers.
#pragma once

#include <string>
#include <vector>

#include "bench/tpch/run_report.h"
#include "tpch/direct_loader.h"

namespace floe::tpch {

struct RunOptions {
  double scale_factor = 0.01;
  int threads = 1;  // generation, loading and queries, on both systems
  int runs = 1;
  std::vector<int> queries;  // 1..22, empty for all
  // Other query scripts to run instead of TPC-H's (named by their file's stem): e.g. the
  // window, set operation and string function queries of bench/sql/. Their first result
  // value is checked against DuckDB's.
  std::vector<std::string> query_files;
  bool validate = false;  // against <tpch_dir>/answers/sf<SF>/ when it exists
  bool duckdb = true;     // side by side when bench/peers/duckdb_peer.h finds DuckDB
  std::string tpch_dir;   // bench/tpch: queries/qNN.sql, answers/
  bool freeze = true;     // tables frozen into Data Blocks as they load (else all hot)
  // SQL run after loading, before the queries, e.g. "SET scan_mode = 'jit'" or
  // "CALL freeze('lineitem', 'l_shipdate')".
  std::string setup;
  // Execution modes to run each query in, one after another in the same process ("compiled",
  // "vectorized", "adaptive": SET execution_mode); empty: the connection's (after `setup`).
  std::vector<std::string> modes;
  LoadProgress progress;  // optional
};

// Throws floe::Error when the data cannot be generated or loaded; a failing query only
// sets its report's error. One report per query and mode, DuckDB's timing in each.
std::vector<QueryReport> run_tpch(const RunOptions& options);

// The whole file, e.g. a query script. Throws floe::Error when it cannot be read.
std::string read_text_file(const std::string& path);

// "1,6,q15" -> {1, 6, 15}. Throws floe::Error for anything but 1..22.
std::vector<int> parse_query_list(const std::string& list);

}  // namespace floe::tpch
