// floe-compaction-experiments: the chunk compaction experiments of Qiao & Zhang, "Data Chunk
// Compaction in Vectorized Execution" (SIGMOD 2024, section 6), on floe's vectorized engine
// (`SET compaction`, engine/vector/compaction.h). Prints CSV (bench/RESULTS.md "Chunk
// compaction", plots by bench/compaction/plot.gnuplot); each time is the median of --runs
// runs, the strategies of one configuration interleaved so that they share the machine's
// noise.
//
//   floe-compaction-experiments joins   Fig 10: R (--rows, 2E6) joined with k = 2..4 tables
//                                       S_i of 2E5 rows at chunk-reduction factor 2..32
//   floe-compaction-experiments tuple   Fig 11: k = 3, CRF 8, S_2's payload 32..1000 bytes
//   floe-compaction-experiments tpch    Table 1: TPC-H (--sf, 1) under compaction none: per
//                                       hash join the average chunk size after it and its
//                                       output chunks per probe chunk; then every query's
//                                       time under each strategy
//   options: --runs N (3), --threads N (2), --rows N, --sf SF
//
// The workload of Figs 10 and 11: R(a1..a4) with a1 = n % (2E5 * CRF) and a2..a4 scattered
// keys of S_2..S_4; S_1 holds the 2E5 keys 0, CRF, 2 CRF, ..., so that the first join passes
// one of every CRF probe rows, spread evenly over R's chunks; S_2..S_4 hold all 2E5 keys
// (every probe row matches once).
// The first join's output chunks thus have 2048 / CRF rows, and the k - 1 joins and the
// aggregation above run on them. (The paper keeps the join output at R's size with CRF
// matches per matching row; floe's probe gathers the pairs of several match steps into one
// chunk, so that reduction would not shrink its chunks.)
#include <cstdio>
#include <cstdlib>
#include <map>
#include <string>
#include <vector>

#include "bench/tpch/query_timing.h"
#include "bench/tpch/tpch_run.h"
#include "engine/api/database.h"
#include "storage/error.h"

namespace floe {
namespace {

struct Options {
  std::string experiment;
  int runs = 3;
  uint32_t threads = 2;
  int64_t rows = 2'000'000;
  double scale_factor = 1;
};

const char* const kStrategies[] = {"none", "full", "binary", "learned"};
constexpr int64_t kBuildRows = 200'000;

Options parse_options(int argc, char** argv) {
  Options options;
  if (argc < 2) throw Error("usage: floe-compaction-experiments joins|tuple|tpch [options]");
  options.experiment = argv[1];
  for (int i = 2; i + 1 < argc; i += 2) {
    std::string flag = argv[i];
    if (flag == "--runs") {
      options.runs = std::atoi(argv[i + 1]);
    } else if (flag == "--threads") {
      options.threads = static_cast<uint32_t>(std::atoi(argv[i + 1]));
    } else if (flag == "--rows") {
      options.rows = std::atoll(argv[i + 1]);
    } else if (flag == "--sf") {
      options.scale_factor = std::atof(argv[i + 1]);
    } else {
      throw Error("unknown option " + flag);
    }
  }
  if (options.runs < 1 || options.threads < 1) throw Error("--runs and --threads must be >= 1");
  return options;
}

// R and S_1..S_4 for one CRF; S_2's payload p has `payload` bytes.
void create_tables(Connection& connection, int64_t rows, int crf, int payload) {
  connection.query("drop table if exists r; drop table if exists s1; drop table if exists s2; "
                   "drop table if exists s3; drop table if exists s4");
  const std::string build = std::to_string(kBuildRows);
  connection.query("create table r (a1 bigint, a2 bigint, a3 bigint, a4 bigint); "
                   "insert into r select n % " + std::to_string(kBuildRows * crf) +
                   ", (n * 7919) % " + build + ", (n * 104729) % " + build +
                   ", (n * 1299709) % " + build + " from generate_series(0, " +
                   std::to_string(rows - 1) + ") as g(n)");
  connection.query("create table s1 (k bigint, v bigint); insert into s1 select n * " +
                   std::to_string(crf) + ", n from generate_series(0, " + build +
                   " - 1) as g(n)");
  connection.query("create table s2 (k bigint, p text); insert into s2 select n, repeat('x', " +
                   std::to_string(payload) + ") from generate_series(0, " +
                   std::to_string(kBuildRows - 1) + ") as g(n)");
  for (int i = 3; i <= 4; ++i)
    connection.query("create table s" + std::to_string(i) + " (k bigint, v bigint); insert into s" +
                     std::to_string(i) + " select n, n from generate_series(0, " +
                     std::to_string(kBuildRows - 1) + ") as g(n)");
  connection.query("vacuum freeze");
}

// The left-deep k-way join, R probing S_1 first (the optimizer keeps R as the probe side of
// every join: it is the largest).
std::string join_query(int k) {
  std::string sql = "select count(*), sum(length(s2.p))";
  if (k < 2) throw Error("k >= 2");
  sql += " from r join s1 on r.a1 = s1.k join s2 on r.a2 = s2.k";
  if (k >= 3) sql += " join s3 on r.a3 = s3.k";
  if (k >= 4) sql += " join s4 on r.a4 = s4.k";
  return sql;
}

// Median execution ms of `sql` per strategy, interleaved over the runs.
std::map<std::string, double> time_strategies(Connection& connection, const std::string& sql,
                                              int runs) {
  std::map<std::string, std::vector<double>> samples;
  std::string expected;
  for (int run = 0; run < runs + 1; ++run) {  // the first run warms up
    for (const char* strategy : kStrategies) {
      connection.query(std::string("set compaction = '") + strategy + "'");
      tpch::FloeTiming timing = tpch::time_floe(connection, {sql}, 1);
      std::string answer = timing.result.value(0, 0).to_string() + "," +
                           timing.result.value(0, 1).to_string();
      if (expected.empty()) expected = answer;
      if (answer != expected) throw Error(std::string("different answers under ") + strategy);
      if (run > 0) samples[strategy].push_back(timing.exec_ms);
    }
  }
  std::map<std::string, double> medians;
  for (auto& [strategy, times] : samples) medians[strategy] = tpch::median(times);
  return medians;
}

void print_times(const std::string& prefix, const std::map<std::string, double>& times) {
  std::printf("%s", prefix.c_str());
  for (const char* strategy : kStrategies) std::printf(",%.2f", times.at(strategy));
  std::printf("\n");
  std::fflush(stdout);
}

Connection& vectorized(Connection& connection, const Options& options) {
  connection.options().threads = options.threads;
  connection.query("set execution_mode = 'vectorized'; set freeze_policy = 'never'");
  return connection;
}

void run_joins(const Options& options) {
  Database database;
  Connection connection(database);
  vectorized(connection, options);
  std::printf("k,crf,none_ms,full_ms,binary_ms,learned_ms\n");
  for (int crf : {2, 4, 8, 16, 32}) {
    create_tables(connection, options.rows, crf, 16);
    for (int k = 2; k <= 4; ++k)
      print_times(std::to_string(k) + "," + std::to_string(crf),
                  time_strategies(connection, join_query(k), options.runs));
  }
}

void run_tuple(const Options& options) {
  Database database;
  Connection connection(database);
  vectorized(connection, options);
  std::printf("payload_bytes,none_ms,full_ms,binary_ms,learned_ms\n");
  for (int payload : {32, 64, 128, 256, 512, 1000}) {
    create_tables(connection, options.rows, 8, payload);
    print_times(std::to_string(payload), time_strategies(connection, join_query(3), options.runs));
  }
}

void run_tpch(const Options& options) {
  Database database;
  Connection connection(database);
  vectorized(connection, options);
  connection.query("set freeze_policy = 'auto'");
  char call[64];
  std::snprintf(call, sizeof call, "call dbgen(%g)", options.scale_factor);
  connection.query(call);
  const std::string dir = FLOE_SOURCE_DIR "/bench/tpch/queries/";
  std::printf("# Table 1, compaction none\nquery,join,probe_chunks,avg_probe_chunk,"
              "out_chunks,avg_out_chunk,out_chunks_per_probe_chunk\n");
  std::vector<std::vector<std::string>> scripts;
  for (int q = 1; q <= 22; ++q) {
    char name[16];
    std::snprintf(name, sizeof name, "q%02d.sql", q);
    scripts.push_back(tpch::split_statements(tpch::read_text_file(dir + name)));
  }
  connection.query("set compaction = 'none'");
  for (int q = 1; q <= 22; ++q) {
    const auto& statements = scripts[q - 1];
    int join = 0;
    for (const std::string& statement : statements) {
      if (statement.find("select") == std::string::npos &&
          statement.find("SELECT") == std::string::npos)
        continue;
      bool is_view = statement.rfind("create", 0) == 0 || statement.rfind("drop", 0) == 0;
      if (is_view) {
        connection.query(statement);
        continue;
      }
      Result result = connection.query("explain analyze " + statement);
      for (size_t row = 0; row < result.row_count(); ++row) {
        const std::string line = result.value(row, 0).as_string();
        // EXPLAIN ANALYZE's "HashJoin ... (chunks in A of X rows, out B of Y rows)".
        const size_t chunks = line.find("(chunks in ");
        if (line.find("HashJoin") == std::string::npos || chunks == std::string::npos) continue;
        double in = 0, in_size = 0, out = 0, out_size = 0;
        if (std::sscanf(line.c_str() + chunks, "(chunks in %lf of %lf rows, out %lf of %lf rows)",
                        &in, &in_size, &out, &out_size) != 4)
          continue;
        std::printf("%d,%d,%.0f,%.1f,%.0f,%.1f,%.2f\n", q, ++join, in, in_size, out, out_size,
                    in > 0 ? out / in : 0.0);
      }
    }
    for (const std::string& statement : statements)
      if (statement.rfind("drop", 0) == 0) connection.query(statement);
  }
  std::printf("# TPC-H SF %g, execution ms (median of %d)\nquery,none_ms,full_ms,binary_ms,"
              "learned_ms\n",
              options.scale_factor, options.runs);
  std::map<std::string, std::vector<double>> totals;
  for (int q = 1; q <= 22; ++q) {
    std::map<std::string, std::vector<double>> samples;
    for (int run = 0; run < options.runs + 1; ++run) {
      for (const char* strategy : kStrategies) {
        connection.query(std::string("set compaction = '") + strategy + "'");
        tpch::FloeTiming timing = tpch::time_floe(connection, scripts[q - 1], 1);
        if (run > 0) samples[strategy].push_back(timing.exec_ms);
      }
    }
    std::map<std::string, double> medians;
    for (auto& [strategy, times] : samples) medians[strategy] = tpch::median(times);
    print_times(std::to_string(q), medians);
  }
}

}  // namespace
}  // namespace floe

int main(int argc, char** argv) {
  try {
    floe::Options options = floe::parse_options(argc, argv);
    if (options.experiment == "joins") {
      floe::run_joins(options);
    } else if (options.experiment == "tuple") {
      floe::run_tuple(options);
    } else if (options.experiment == "tpch") {
      floe::run_tpch(options);
    } else {
      throw floe::Error("unknown experiment " + options.experiment);
    }
    return 0;
  } catch (const std::exception& error) {
    std::fprintf(stderr, "floe-compaction-experiments: %s\n", error.what());
    return 1;
  }
}
