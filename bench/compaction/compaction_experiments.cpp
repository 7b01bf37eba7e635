// floe-compaction-experiments: the chunk compaction experiments of Qiao & Zhang, "Data Chunk
// Compaction in Vectorized Execution" (SIGMOD 2024, section 6), on floe's vectorized engine
// (`SET compaction`, engine/vector/compaction.h). Prints CSV (bench/RESULTS.md "Chunk
// compaction", plots by bench/compaction/plot.gnuplot); each time is the median of --runs
// runs, the strategies of one configuration interleaved so that they share the machine's
// noise.
//
// Figs 10 and 11 time the probe pipeline (EXPLAIN ANALYZE's time of the pipeline that scans
// R), where compaction acts; the builds of S_1..S_4 take the same time under every strategy.
//
//   floe-compaction-experiments joins   Fig 10: R (--rows, 2E6) joined with k = 2..4 tables
//                                       S_i of 2E5 rows at chunk-reduction factor 2..32
//   floe-compaction-experiments tuple   Fig 11: k = 3, CRF 8, S_2's payload 32..1000 bytes
//   floe-compaction-experiments thresholds  Fig 12: k = 3, CRF 8 under learned compaction,
//                                       S_2's tuple 16 or 1000 bytes: how often each join's
//                                       learner picked each threshold (EXPLAIN ANALYZE)
//   floe-compaction-experiments selection   Fig 13: a filter (id_1 < 30 of 0..99) over
//                                       chunks of 1..32 BIGINT columns with one extended
//                                       selection vector or one per column (logical_chunk.h):
//                                       the time of the predicate and of narrowing the SVs
//   floe-compaction-experiments tpch    Table 1: TPC-H (--sf, 1) under compaction none: per
//                                       hash join the average chunk size after it and its
//                                       output chunks per probe chunk; then every query's
//                                       time under each strategy
//   options: --runs N (3), --threads N (2), --rows N, --sf SF, --k K and --crf CRF (joins:
//   that configuration only)
//
// The workload of Figs 10 and 11: R(a1..a4) of --rows rows with a1 = n and a2..a4 scattered
// keys of S_2..S_4; S_1 holds every CRF-th value of a1, so that the first join passes one of
// every CRF probe rows, spread evenly over R's chunks; S_2..S_4 hold 10,000 keys each (every
// probe row matches once). The first join's output chunks thus have 2048 / CRF rows, and the
// k - 1 joins and the aggregation above run on them. Deviations from the paper, both so that
// floe's plans are this left-deep probe pipeline: S_2..S_4 have 1E4 rows rather than 2E5 (the
// optimizer makes the smaller input the build side, and R's rows after the first join must
// outnumber them), and the reduction is by matches, not by CRF matches per matching row
// (floe's probe gathers the pairs of several match steps into one chunk, so that would not
// shrink its chunks). Fig 11's tuple length is the bytes of S_2's payload columns (BIGINT
// columns, 4 to 125, all summed above the joins): floe's strings are 16-byte references, so
// a long string would not make the copying dearer.
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <map>
#include <numeric>
#include <string>
#include <vector>

#include "bench/tpch/query_timing.h"
#include "bench/tpch/tpch_run.h"
#include "engine/api/database.h"
#include "engine/vector/logical_chunk.h"
#include "runtime/compaction_learner.h"
#include "storage/error.h"

namespace floe {
namespace {

struct Options {
  std::string experiment;
  int runs = 3;
  uint32_t threads = 2;
  int64_t rows = 2'000'000;
  double scale_factor = 1;
  int only_k = 0;    // joins: this k only (0: 2..4)
  int only_crf = 0;  // joins: this CRF only (0: 2..32)
};

const char* const kStrategies[] = {"none", "full", "binary", "learned", "logical", "smart"};

// ",none_ms,full_ms,...": the CSV columns of print_times.
std::string strategy_columns() {
  std::string columns;
  for (const char* strategy : kStrategies) columns += std::string(",") + strategy + "_ms";
  return columns;
}

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
    } else if (flag == "--k") {
      options.only_k = std::atoi(argv[i + 1]);
    } else if (flag == "--crf") {
      options.only_crf = std::atoi(argv[i + 1]);
    } else if (flag == "--sf") {
      options.scale_factor = std::atof(argv[i + 1]);
    } else {
      throw Error("unknown option " + flag);
    }
  }
  if (options.runs < 1 || options.threads < 1) throw Error("--runs and --threads must be >= 1");
  return options;
}

constexpr int64_t kDimensionRows = 10'000;

std::string series(int64_t rows) {
  return " from generate_series(cast(0 as bigint), " + std::to_string(rows - 1) + ") as g(n)";
}

void create_probe_table(Connection& connection, int64_t rows) {
  const std::string keys = std::to_string(kDimensionRows);
  connection.query(
      "drop table if exists r; create table r (a1 bigint, a2 bigint, a3 bigint, "
      "a4 bigint); insert into r select n, (n * 7919) % " +
      keys + ", (n * 104729) % " + keys + ", (n * 1299709) % " + keys + series(rows));
}

// S_1 for `crf`, and S_2..S_4, S_2 with `columns` BIGINT payload columns p1, p2, ...
void create_build_tables(Connection& connection, int64_t rows, int crf, int columns) {
  connection.query(
      "drop table if exists s1; create table s1 (k bigint, v bigint); "
      "insert into s1 select n * " +
      std::to_string(crf) + ", n" + series(rows / crf));
  std::string create = "drop table if exists s2; create table s2 (k bigint";
  std::string insert = "insert into s2 select n";
  for (int c = 1; c <= columns; ++c) {
    create += ", p" + std::to_string(c) + " bigint";
    insert += ", n + " + std::to_string(c);
  }
  connection.query(create + "); " + insert + series(kDimensionRows));
  for (int i = 3; i <= 4; ++i) {
    const std::string s = "s" + std::to_string(i);
    connection.query("drop table if exists " + s + "; create table " + s +
                     " (k bigint, v bigint); insert into " + s + " select n, n" +
                     series(kDimensionRows));
  }
  connection.query("vacuum freeze");
}

// The left-deep k-way join: R probes S_1 (the selective join), then S_2..S_k; the aggregate
// reads every payload column of S_2.
std::string join_query(int k, int columns) {
  if (k < 2) throw Error("k >= 2");
  std::string sum = "s2.p1";
  for (int c = 2; c <= columns; ++c) sum += " + s2.p" + std::to_string(c);
  std::string sql = "select count(*), sum(" + sum + ")";
  sql += " from r join s1 on r.a1 = s1.k join s2 on r.a2 = s2.k";
  if (k >= 3) sql += " join s3 on r.a3 = s3.k";
  if (k >= 4) sql += " join s4 on r.a4 = s4.k";
  return sql;
}

// The ms of the probe pipeline (the one that scans R) of `sql`, from EXPLAIN ANALYZE: the
// joins' builds take the same time under every strategy.
double probe_pipeline_ms(Connection& connection, const std::string& sql) {
  Result result = connection.query("explain analyze " + sql);
  for (size_t row = 0; row < result.row_count(); ++row) {
    const std::string line = result.value(row, 0).as_string();
    if (line.find(": Scan r ->") == std::string::npos) continue;
    const size_t open = line.rfind(" (");
    return std::stod(line.substr(open + 2));
  }
  throw Error("no probe pipeline in the plan of " + sql);
}

// Median ms of the probe pipeline of `sql` per strategy, interleaved over the runs; the
// answers must agree.
std::map<std::string, double> time_strategies(Connection& connection, const std::string& sql,
                                              int runs) {
  std::map<std::string, std::vector<double>> samples;
  std::string expected;
  for (int run = 0; run < runs + 1; ++run) {  // the first run warms up and checks
    for (const char* strategy : kStrategies) {
      connection.query(std::string("set compaction = '") + strategy + "'");
      if (run == 0) {
        Result result = connection.query(sql);
        std::string answer = result.value(0, 0).to_string() + "," + result.value(0, 1).to_string();
        if (expected.empty()) expected = answer;
        if (answer != expected) throw Error(std::string("different answers under ") + strategy);
        continue;
      }
      samples[strategy].push_back(probe_pipeline_ms(connection, sql));
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

// Figs 10 and 11: a database with R, the CSV header, then `body` (build tables and times).
void run_join_experiment(const Options& options, const std::string& header,
                         const std::function<void(Connection&)>& body) {
  Database database;
  Connection connection(database);
  vectorized(connection, options);
  std::printf("# probe pipeline ms, median of %d, R %lld rows\n%s%s\n", options.runs,
              static_cast<long long>(options.rows), header.c_str(), strategy_columns().c_str());
  create_probe_table(connection, options.rows);
  body(connection);
}

void run_joins(const Options& options) {
  run_join_experiment(options, "k,crf", [&](Connection& connection) {
    for (int crf : {2, 4, 8, 16, 32}) {
      if (options.only_crf && crf != options.only_crf) continue;
      create_build_tables(connection, options.rows, crf, 2);
      for (int k = 2; k <= 4; ++k) {
        if (options.only_k && k != options.only_k) continue;
        print_times(std::to_string(k) + "," + std::to_string(crf),
                    time_strategies(connection, join_query(k, 2), options.runs));
      }
    }
  });
}

// k = 3, CRF 8.
void run_tuple(const Options& options) {
  run_join_experiment(options, "payload_bytes", [&](Connection& connection) {
    for (int columns : {4, 8, 16, 32, 64, 125}) {
      create_build_tables(connection, options.rows, 8, columns);
      print_times(std::to_string(8 * columns),
                  time_strategies(connection, join_query(3, columns), options.runs));
    }
  });
}

// Fig 12: per case (S_2's tuple bytes: its key and 1 or 124 payload columns) and join (the
// i-th joins S_i), the share of the learner's selections of each threshold, summed over
// --runs runs of EXPLAIN ANALYZE under learned compaction.
void run_thresholds(const Options& options) {
  Database database;
  Connection connection(database);
  vectorized(connection, options);
  create_probe_table(connection, options.rows);
  connection.query("set compaction = 'learned'");
  std::printf(
      "# Fig 12: share (%%) of each join's learned thresholds, k = 3, CRF 8, %d runs\n"
      "case,s2_tuple_bytes,threshold,join1,join2,join3\n",
      options.runs);
  int case_number = 0;
  for (int columns : {1, 124}) {
    create_build_tables(connection, options.rows, 8, columns);
    std::map<int, std::map<uint32_t, double>> selections;  // by join, by threshold
    std::map<int, double> totals;
    const std::string sql = join_query(3, columns);
    for (int run = 0; run < options.runs; ++run) {
      Result result = connection.query("explain analyze " + sql);
      for (size_t row = 0; row < result.row_count(); ++row) {
        const std::string line = result.value(row, 0).as_string();
        const size_t learned = line.find("(learned thresholds ");
        if (line.find("HashJoin") == std::string::npos || learned == std::string::npos) continue;
        // The join of S_i: its child (indented two more) that scans S_i.
        const size_t indent = line.find_first_not_of(' ');
        int join = 0;
        for (size_t child = row + 1; child < result.row_count() && join == 0; ++child) {
          const std::string below = result.value(child, 0).as_string();
          const size_t depth = below.find_first_not_of(' ');
          if (depth <= indent) break;
          if (depth == indent + 2 && below.compare(depth, 6, "Scan s") == 0)
            join = below[depth + 6] - '0';
        }
        if (join < 1 || join > 3) throw Error("no S_i under a join: " + line);
        // "(learned thresholds 0: 72, 128: 950)"
        const char* at = line.c_str() + learned + std::strlen("(learned thresholds ");
        unsigned threshold = 0;
        double count = 0;
        int used = 0;
        while (std::sscanf(at, "%u: %lf%n", &threshold, &count, &used) == 2) {
          selections[join][threshold] += count;
          totals[join] += count;
          at += used;
          if (*at != ',') break;
          at += 2;
        }
      }
    }
    ++case_number;
    for (uint32_t threshold : CompactionLearner::kPaperArms) {
      std::printf("%d,%d,%u", case_number, 8 * (columns + 1), threshold);
      for (int join = 1; join <= 3; ++join)
        std::printf(",%.1f",
                    totals[join] > 0 ? 100 * selections[join][threshold] / totals[join] : 0.0);
      std::printf("\n");
    }
    std::fflush(stdout);
  }
}

// Fig 13: a filter over --rows rows of `columns` BIGINT columns in chunks of 2048 rows with
// extended selection vectors (logical_chunk.h), one for all columns or one per column: the
// predicate id_1 < 30 (id_1 uniform over 0..99, selectivity 0.3), evaluated on id_1 read
// through its SV, and the narrowing of every SV to the rows that passed (SIGMOD 2024 §6.4).
// Only id_1 is read; the other columns are views of it, since narrowing does not touch them.
void run_selection(const Options& options) {
  using vectorized::LogicalChunk;
  using vectorized::Vector;
  using Clock = std::chrono::steady_clock;
  const uint32_t size = vectorized::kDefaultChunkCapacity;
  const int64_t chunks = options.rows / size;
  Vector id(SqlType::big_int(), static_cast<uint32_t>(chunks * size));
  uint64_t random = 42;
  for (int64_t i = 0; i < chunks * size; ++i) {
    random = random * 6364136223846793005ULL + 1442695040888963407ULL;
    id.mutable_values<int64_t>()[i] = static_cast<int64_t>((random >> 33) % 100);
  }
  std::vector<uint32_t> identity(size), passed(size);
  std::iota(identity.begin(), identity.end(), 0u);
  std::printf(
      "# Fig 13: filter ms over %lld rows (median of %d)\n"
      "columns,svs,predicate_ms,update_ms\n",
      static_cast<long long>(chunks * size), options.runs);
  // Rows: one SV for 1..32 columns, then one SV per column (1 column: the same again).
  for (bool per_column : {false, true}) {
    for (int columns : {1, 2, 4, 8, 16, 32}) {
      const int svs = per_column ? columns : 1;
      std::vector<double> predicate_ms, update_ms;
      uint64_t rows_passed = 0;
      for (int run = 0; run < options.runs; ++run) {
        Clock::duration predicate{}, update{};
        for (int64_t c = 0; c < chunks; ++c) {
          LogicalChunk chunk(size, size);
          std::vector<size_t> groups;
          for (int g = 0; g < svs; ++g) groups.push_back(chunk.add_group(identity.data()));
          const int64_t* values = id.values<int64_t>() + c * size;
          for (int k = 0; k < columns; ++k)
            chunk.add_column(Vector::wrap(SqlType::big_int(), values, nullptr, 0),
                             groups[static_cast<size_t>(k % svs)]);
          const auto start = Clock::now();
          vectorized::DataChunk read = chunk.materialize({0});
          const int64_t* id_1 = read.column(0).values<int64_t>();
          uint32_t count = 0;
          for (uint32_t i = 0; i < size; ++i) {
            passed[count] = i;
            count += id_1[i] < 30;
          }
          const auto narrowed = Clock::now();
          chunk.select(passed.data(), count);
          update += Clock::now() - narrowed;
          predicate += narrowed - start;
          rows_passed += chunk.count();
        }
        predicate_ms.push_back(std::chrono::duration<double, std::milli>(predicate).count());
        update_ms.push_back(std::chrono::duration<double, std::milli>(update).count());
      }
      if (rows_passed == 0) throw Error("no row passed");
      std::printf("%d,%d,%.2f,%.2f\n", columns, svs, tpch::median(predicate_ms),
                  tpch::median(update_ms));
      std::fflush(stdout);
    }
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
  std::printf(
      "# Table 1, compaction none\nquery,join,probe_chunks,avg_probe_chunk,"
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
  std::printf("# TPC-H SF %g, execution ms (median of %d)\nquery%s\n", options.scale_factor,
              options.runs, strategy_columns().c_str());
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
    } else if (options.experiment == "thresholds") {
      floe::run_thresholds(options);
    } else if (options.experiment == "selection") {
      floe::run_selection(options);
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
