// floe-scan-configurations: the Data Blocks paper's Table 4 (and Table 2). The 22 TPC-H
// queries under six scan configurations, in one process on one copy of the data:
//
//   floe-scan-configurations [--sf 1] [--threads 2] [--rounds 5] [--tpch-dir DIR]
//
// The data is loaded into hot chunks for the three uncompressed configurations, then frozen
// (VACUUM FREEZE) for the three Data Block ones. Within each storage, every round runs each
// query once under each configuration in turn, so that the configurations share the
// machine's noise (this machine is shared); the tables report per query the median over the
// rounds of execution and compile time, the geometric means, and speedups against the JIT
// scan on uncompressed data. Every result is checked against the reference answer when
// DIR/answers/sf<SF>/ exists.
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <string>
#include <vector>

#include "bench/tpch/answer_check.h"
#include "bench/tpch/query_timing.h"
#include "bench/tpch/tpch_run.h"
#include "engine/api/database.h"
#include "storage/error.h"
#include "tpch/direct_loader.h"
#include "tpch/schema_sql.h"

namespace floe {
namespace {

constexpr int kQueryCount = 22;

struct Configuration {
  const char* name;
  bool frozen;
  const char* settings;  // every scan setting, so that no configuration inherits another's
};

constexpr Configuration kConfigurations[] = {
    {"JIT scan, uncompressed", false,
     "set scan_mode = 'jit'; set sarg_pushdown = off; set sma_skipping = off; set psma = off"},
    {"vectorized scan, uncompressed", false,
     "set scan_mode = 'vectorized'; set sarg_pushdown = off; set sma_skipping = off; "
     "set psma = off"},
    {"+SARG", false,
     "set scan_mode = 'vectorized'; set sarg_pushdown = on; set sma_skipping = off; "
     "set psma = off"},
    {"Data Blocks", true,
     "set scan_mode = 'vectorized'; set sarg_pushdown = off; set sma_skipping = off; "
     "set psma = off"},
    {"+SARG/SMA", true,
     "set scan_mode = 'vectorized'; set sarg_pushdown = on; set sma_skipping = on; "
     "set psma = off"},
    {"+PSMA", true,
     "set scan_mode = 'vectorized'; set sarg_pushdown = on; set sma_skipping = on; "
     "set psma = on"},
};
constexpr size_t kConfigurationCount = std::size(kConfigurations);

struct Options {
  double scale_factor = 1;
  int threads = 2;
  int rounds = 5;
  std::string tpch_dir = FLOE_SOURCE_DIR "/bench/tpch";
};

Options parse_options(int argc, char** argv) {
  Options options;
  for (int i = 1; i + 1 < argc; i += 2) {
    std::string flag = argv[i];
    if (flag == "--sf") {
      options.scale_factor = std::stod(argv[i + 1]);
    } else if (flag == "--threads") {
      options.threads = std::stoi(argv[i + 1]);
    } else if (flag == "--rounds") {
      options.rounds = std::stoi(argv[i + 1]);
    } else if (flag == "--tpch-dir") {
      options.tpch_dir = argv[i + 1];
    } else {
      throw Error("unknown option " + flag);
    }
  }
  if (options.rounds < 1 || options.threads < 1) throw Error("--rounds and --threads must be >= 1");
  return options;
}

struct Query {
  std::string name;  // q01 ... q22
  std::vector<std::string> statements;
  std::string answer_path;  // empty without a reference answer
};

std::vector<Query> read_queries(const Options& options) {
  char folder[32];
  std::snprintf(folder, sizeof folder, "sf%g", options.scale_factor);
  std::vector<Query> queries;
  for (int number = 1; number <= kQueryCount; ++number) {
    char name[8];
    std::snprintf(name, sizeof name, "q%02d", number);
    const std::string script = tpch::read_text_file(options.tpch_dir + "/queries/" + name + ".sql");
    Query query{name, tpch::split_statements(script),
                options.tpch_dir + "/answers/" + folder + "/" + name + ".csv"};
    if (!std::filesystem::exists(query.answer_path)) query.answer_path.clear();
    queries.push_back(std::move(query));
  }
  return queries;
}

void check_answer(const Query& query, int number, const Result& result, const char* config) {
  if (query.answer_path.empty()) return;
  std::vector<SqlType> types;
  for (size_t i = 0; i < result.column_count(); ++i) types.push_back(result.column_type(i));
  std::string mismatch = tpch::compare_with_answer(
      types, result.rows(), tpch::read_answer(query.answer_path), tpch::order_key_columns(number));
  if (!mismatch.empty())
    throw Error(query.name + " is wrong under \"" + config + "\": " + mismatch);
}

// Per configuration and query: the timings of every round.
struct Samples {
  std::vector<double> exec_ms[kConfigurationCount][kQueryCount];
  std::vector<double> compile_ms[kConfigurationCount][kQueryCount];
};

// Runs the rounds for the configurations of one storage (hot or frozen).
void measure(Connection& connection, const std::vector<Query>& queries, bool frozen, int rounds,
             Samples& samples) {
  for (int round = 0; round < rounds; ++round) {
    std::fprintf(stderr, "%s data, round %d of %d\n", frozen ? "frozen" : "hot", round + 1, rounds);
    for (int q = 0; q < kQueryCount; ++q) {
      for (size_t c = 0; c < kConfigurationCount; ++c) {
        if (kConfigurations[c].frozen != frozen) continue;
        connection.query(kConfigurations[c].settings);
        tpch::FloeTiming timing = tpch::time_floe(connection, queries[q].statements, 1);
        if (round == 0) check_answer(queries[q], q + 1, timing.result, kConfigurations[c].name);
        samples.exec_ms[c][q].push_back(timing.exec_ms);
        samples.compile_ms[c][q].push_back(timing.compile_ms);
      }
    }
  }
}

double geometric_mean(const std::vector<double>& values) {
  double sum = 0;
  for (double value : values) sum += std::log(std::max(value, 1e-3));
  return std::exp(sum / double(values.size()));
}

void print(const std::vector<Query>& queries, const Samples& samples, const Options& options) {
  double exec[kConfigurationCount][kQueryCount];
  double compile[kConfigurationCount][kQueryCount];
  for (size_t c = 0; c < kConfigurationCount; ++c) {
    for (int q = 0; q < kQueryCount; ++q) {
      exec[c][q] = tpch::median(samples.exec_ms[c][q]);
      compile[c][q] = tpch::median(samples.compile_ms[c][q]);
    }
  }
  std::printf("Execution ms (median of %d rounds), SF %g, %d threads\n\n| query |", options.rounds,
              options.scale_factor, options.threads);
  for (const Configuration& config : kConfigurations) std::printf(" %s |", config.name);
  std::printf("\n|---|");
  for (size_t c = 0; c < kConfigurationCount; ++c) std::printf("---|");
  std::printf("\n");
  for (int q = 0; q < kQueryCount; ++q) {
    std::printf("| %s |", queries[q].name.c_str());
    for (size_t c = 0; c < kConfigurationCount; ++c) std::printf(" %.1f |", exec[c][q]);
    std::printf("\n");
  }
  auto row_of_means = [&](const char* label, double(*values)[kQueryCount]) {
    std::vector<double> means;
    std::printf("| %s |", label);
    for (size_t c = 0; c < kConfigurationCount; ++c) {
      means.push_back(geometric_mean(std::vector<double>(values[c], values[c] + kQueryCount)));
      std::printf(" %.1f |", means.back());
    }
    std::printf("\n");
    return means;
  };
  std::vector<double> exec_means = row_of_means("geo. mean exec", exec);
  std::vector<double> compile_means = row_of_means("geo. mean compile", compile);
  std::printf("| speedup (geo. mean exec) |");
  for (double mean : exec_means) std::printf(" %.2fx |", exec_means[0] / mean);
  std::printf("\n| compile time / JIT scan's |");
  for (double mean : compile_means) std::printf(" %.2fx |", mean / compile_means[0]);
  std::printf("\n");
  for (int q : {0, 5}) {
    std::printf("| speedup %s |", queries[q].name.c_str());
    for (size_t c = 0; c < kConfigurationCount; ++c)
      std::printf(" %.2fx |", exec[0][q] / exec[c][q]);
    std::printf("\n");
  }
}

int run(const Options& options) {
  std::vector<Query> queries = read_queries(options);
  Database database;
  Connection connection(database);
  connection.query(std::string(tpch::schema_sql()));
  connection.query("set freeze_policy = 'never'");
  {
    auto statements = database.lock_statements();
    tpch::load_tables(database.catalog(), options.scale_factor, options.threads);
  }
  connection.options().threads = static_cast<uint32_t>(options.threads);
  Samples samples;
  measure(connection, queries, false, options.rounds, samples);
  connection.query("vacuum freeze");
  measure(connection, queries, true, options.rounds, samples);
  print(queries, samples, options);
  return 0;
}

}  // namespace
}  // namespace floe

int main(int argc, char** argv) {
  try {
    return floe::run(floe::parse_options(argc, argv));
  } catch (const std::exception& error) {
    std::fprintf(stderr, "floe-scan-configurations: %s\n", error.what());
    return 1;
  }
}
