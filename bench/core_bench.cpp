// floe-bench-core: TPC-H Q1 and Q6 on the SF 0.01 lineitem, doubled with INSERT ... SELECT
// until it holds at least 6 million rows. Reports, per query, the median over --runs of
// floe's compile time (IR generation + LLVM) and execution time at both optimization
// levels, tuples per second per core, and the same queries on SQLite and (when its library
// is present, see bench/fetch-duckdb.sh) DuckDB over the same rows, single-threaded, in the
// same run. Usage:
//   floe-bench-core [--data DIR] [--rows N] [--runs R] [--peers yes|no]
// --data names a folder with dbgen's lineitem.tbl; without it, SF 0.01 .tbl files are
// generated (tpch/tbl_files.h) into a temporary folder.
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <functional>
#include <memory>
#include <sstream>
#include <string>
#include <vector>

#include "bench/peers/duckdb_peer.h"
#include "bench/peers/sqlite_peer.h"
#include "engine/api/database.h"
#include "runtime/memory_policy.h"
#include "storage/error.h"
#include "tpch/tbl_files.h"

namespace {

// lineitem without its primary key: doubling the table duplicates keys on purpose.
constexpr const char* kLineitemDdl = R"(CREATE TABLE lineitem (
  l_orderkey INTEGER NOT NULL, l_partkey INTEGER NOT NULL, l_suppkey INTEGER NOT NULL,
  l_linenumber INTEGER NOT NULL, l_quantity DECIMAL(15,2) NOT NULL,
  l_extendedprice DECIMAL(15,2) NOT NULL, l_discount DECIMAL(15,2) NOT NULL,
  l_tax DECIMAL(15,2) NOT NULL, l_returnflag CHAR(1) NOT NULL, l_linestatus CHAR(1) NOT NULL,
  l_shipdate DATE NOT NULL, l_commitdate DATE NOT NULL, l_receiptdate DATE NOT NULL,
  l_shipinstruct CHAR(25) NOT NULL, l_shipmode CHAR(10) NOT NULL, l_comment VARCHAR(44) NOT NULL))";

// SQLite has no DATE or interval arithmetic: dates are ISO text and the constants folded.
constexpr const char* kSqliteQ1 = R"(SELECT l_returnflag, l_linestatus, sum(l_quantity),
  sum(l_extendedprice), sum(l_extendedprice * (1 - l_discount)),
  sum(l_extendedprice * (1 - l_discount) * (1 + l_tax)), avg(l_quantity), avg(l_extendedprice),
  avg(l_discount), count(*) FROM lineitem WHERE l_shipdate <= '1998-09-02'
  GROUP BY l_returnflag, l_linestatus ORDER BY l_returnflag, l_linestatus)";
constexpr const char* kSqliteQ6 = R"(SELECT sum(l_extendedprice * l_discount) FROM lineitem
  WHERE l_shipdate >= '1994-01-01' AND l_shipdate < '1995-01-01'
  AND l_discount BETWEEN 0.05 AND 0.07 AND l_quantity < 24)";

std::string read_file(const std::string& path) {
  std::ifstream in(path);
  if (!in) throw floe::Error("cannot open " + path);
  std::stringstream buffer;
  buffer << in.rdbuf();
  return buffer.str();
}

double median(std::vector<double> values) {
  std::sort(values.begin(), values.end());
  size_t n = values.size();
  return n % 2 ? values[n / 2] : (values[n / 2 - 1] + values[n / 2]) / 2;
}

double time_ms(const std::function<void()>& work) {
  auto start = std::chrono::steady_clock::now();
  work();
  return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start)
      .count();
}

struct Options {
  std::string source_dir = FLOE_SOURCE_DIR;
  std::string data_dir;  // empty: generate SF 0.01
  uint64_t min_rows = 6'000'000;
  int runs = 5;
  bool peers = true;
};

Options parse_options(int argc, char** argv) {
  Options options;
  for (int i = 1; i + 1 < argc; i += 2) {
    if (!std::strcmp(argv[i], "--data"))
      options.data_dir = argv[i + 1];
    else if (!std::strcmp(argv[i], "--rows"))
      options.min_rows = std::stoull(argv[i + 1]);
    else if (!std::strcmp(argv[i], "--runs"))
      options.runs = std::stoi(argv[i + 1]);
    else if (!std::strcmp(argv[i], "--peers"))
      options.peers = std::strcmp(argv[i + 1], "no") != 0;
    else
      throw floe::Error(std::string("unknown option ") + argv[i]);
  }
  return options;
}

// The generated SF 0.01 .tbl files, removed with the object.
class GeneratedData {
 public:
  GeneratedData()
      : dir_(std::filesystem::temp_directory_path() /
             ("floe-bench-core-" + std::to_string(::getpid()))) {
    std::filesystem::create_directories(dir_);
    floe::tpch::write_tbl_files(0.01, dir_.string());
  }
  ~GeneratedData() { std::filesystem::remove_all(dir_); }
  GeneratedData(const GeneratedData&) = delete;
  GeneratedData& operator=(const GeneratedData&) = delete;
  std::string dir() const { return dir_.string(); }

 private:
  std::filesystem::path dir_;
};

// Doubles lineitem with the given executor until it holds at least min_rows; returns rows.
uint64_t double_until(uint64_t rows, uint64_t min_rows, const std::function<void()>& double_once) {
  while (rows < min_rows) {
    double_once();
    rows *= 2;
  }
  return rows;
}

}  // namespace

int main(int argc, char** argv) try {
  floe::keep_freed_memory_for_reuse();
  Options options = parse_options(argc, argv);
  std::unique_ptr<GeneratedData> generated;
  if (options.data_dir.empty()) {
    generated = std::make_unique<GeneratedData>();
    options.data_dir = generated->dir();
  }
  const std::string tbl = options.data_dir + "/lineitem.tbl";

  floe::Database database;
  floe::Connection connection(database);
  connection.options().threads = 1;
  connection.query(kLineitemDdl);
  connection.query("COPY lineitem FROM '" + tbl + "' WITH (DELIMITER '|')");
  const uint64_t base_rows = database.catalog().find_table("lineitem")->row_count();
  const uint64_t rows = double_until(base_rows, options.min_rows, [&] {
    connection.query("INSERT INTO lineitem SELECT * FROM lineitem");
  });
  std::fprintf(stderr, "lineitem: %llu rows\n", static_cast<unsigned long long>(rows));

  struct Line {
    std::string query, engine;
    double compile_ms, execute_ms;
  };
  std::vector<Line> lines;
  for (const char* query : {"q01", "q06"}) {
    std::string sql = read_file(options.source_dir + "/bench/tpch/queries/" + query + ".sql");
    for (auto level : {floe::OptimizationLevel::kFast, floe::OptimizationLevel::kOptimized}) {
      connection.options().optimization = level;
      std::vector<double> compile, execute;
      for (int run = 0; run < options.runs; ++run) {
        floe::Result result = connection.query(sql);
        compile.push_back(result.timings().codegen_ms + result.timings().compile_ms);
        execute.push_back(result.timings().execute_ms);
      }
      lines.push_back({query,
                       level == floe::OptimizationLevel::kFast ? "floe fast" : "floe optimized",
                       median(compile), median(execute)});
    }
  }

  if (options.peers) {
    if (auto duckdb = floe::bench::DuckDbPeer::open_if_available()) {
      duckdb->execute("SET threads TO 1");
      duckdb->execute(kLineitemDdl);
      duckdb->execute("COPY lineitem FROM '" + tbl + "' (DELIMITER '|', HEADER false)");
      double_until(base_rows, options.min_rows,
                   [&] { duckdb->execute("INSERT INTO lineitem SELECT * FROM lineitem"); });
      for (const char* query : {"q01", "q06"}) {
        std::string sql = read_file(options.source_dir + "/bench/tpch/queries/" + query + ".sql");
        std::vector<double> total;
        for (int run = 0; run < options.runs; ++run)
          total.push_back(time_ms([&] { duckdb->execute(sql); }));
        lines.push_back({query, "DuckDB (1 thread)", 0, median(total)});
      }
    } else {
      std::fprintf(stderr, "DuckDB library not found (run bench/fetch-duckdb.sh); skipping it\n");
    }
    floe::bench::SqlitePeer sqlite;
    sqlite.execute(kLineitemDdl);
    sqlite.load_tbl("lineitem", 16, tbl);
    double_until(base_rows, options.min_rows,
                 [&] { sqlite.execute("INSERT INTO lineitem SELECT * FROM lineitem"); });
    for (auto [query, sql] : {std::pair{"q01", kSqliteQ1}, std::pair{"q06", kSqliteQ6}}) {
      std::vector<double> total;
      for (int run = 0; run < std::min(options.runs, 3); ++run)
        total.push_back(time_ms([&, sql = sql] { sqlite.execute(sql); }));
      lines.push_back({query, "SQLite", 0, median(total)});
    }
  }

  std::printf("lineitem rows: %llu, runs: %d (median)\n\n", static_cast<unsigned long long>(rows),
              options.runs);
  std::printf(
      "| query | engine | compile ms | execute ms | total ms | tuples/s/core | total vs floe "
      "optimized |\n");
  std::printf("|---|---|---|---|---|---|---|\n");
  for (const Line& line : lines) {
    double reference = 0;
    for (const Line& other : lines)
      if (other.query == line.query && other.engine == "floe optimized")
        reference = other.compile_ms + other.execute_ms;
    double total = line.compile_ms + line.execute_ms;
    std::printf("| %s | %s | %.1f | %.1f | %.1f | %.3g | %.2fx |\n", line.query.c_str(),
                line.engine.c_str(), line.compile_ms, line.execute_ms, total,
                static_cast<double>(rows) / (line.execute_ms / 1000.0), total / reference);
  }
  return 0;
} catch (const std::exception& error) {
  std::fprintf(stderr, "error: %s\n", error.what());
  return 1;
}
