// floe-tpch: TPC-H tooling.
//   floe-tpch generate --sf SF --out DIR [--threads N]  writes the eight dbgen-identical .tbl
//   files.
//   floe-tpch run --sf SF [--threads N] [--runs R] [--queries LIST] [--validate]
//                 [--json FILE] [--tpch-dir DIR] [--storage frozen|hot]
//                 [--setup SQL] [--no-duckdb] [--query-files A.sql,B.sql]
//                 [--mode compiled,vectorized,adaptive]  loads the data straight into floe
//   (frozen into Data Blocks as it loads, or kept in hot chunks), runs the setup statements
//   (settings, freezing), and times the queries (TPC-H's, or the given query files'), in each
//   execution mode named (default: the connection's, compiled), side by side with DuckDB when
//   its library is found.
#include <charconv>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <map>
#include <set>
#include <sstream>
#include <string>
#include <string_view>
#include <thread>

#include "bench/tpch/load_progress.h"
#include "bench/tpch/tpch_run.h"
#include "runtime/memory_policy.h"
#include "storage/error.h"
#include "tpch/scale.h"
#include "tpch/tbl_files.h"

namespace {

constexpr const char* kUsage =
    "usage: floe-tpch generate --sf SCALE_FACTOR --out DIRECTORY [--threads N]\n"
    "       floe-tpch run --sf SCALE_FACTOR [--threads N] [--runs R] [--queries 1,6,q15]\n"
    "                     [--validate] [--json FILE] [--tpch-dir DIRECTORY]\n"
    "                     [--storage frozen|hot] [--setup \"SET scan_mode = 'jit'; ...\"]\n"
    "                     [--no-duckdb] [--query-files A.sql,B.sql]\n"
    "                     [--mode compiled,vectorized,adaptive]\n";

// Options that take no value.
const std::set<std::string_view> kFlags = {"validate", "no-duckdb"};

using Options = std::map<std::string, std::string>;

// "--name value" pairs and "--flag"s after the subcommand.
Options parse_options(int argc, char** argv) {
  Options options;
  for (int i = 2; i < argc; ++i) {
    std::string_view name = argv[i];
    if (!name.starts_with("--"))
      throw floe::Error("invalid argument \"" + std::string(name) + "\"");
    name.remove_prefix(2);
    if (kFlags.contains(name)) {
      options[std::string(name)] = "";
    } else {
      if (i + 1 >= argc) throw floe::Error("option \"--" + std::string(name) + "\" needs a value");
      options[std::string(name)] = argv[++i];
    }
  }
  return options;
}

void check_known(const Options& options, const std::set<std::string_view>& known) {
  for (const auto& [name, value] : options) {
    if (!known.contains(name)) throw floe::Error("unknown option \"--" + name + "\"");
  }
}

template <typename Number>
Number parse_number(const std::string& text, const char* what) {
  Number value{};
  auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (error != std::errc() || end != text.data() + text.size())
    throw floe::Error(std::string("invalid ") + what + ": \"" + text + "\"");
  return value;
}

int generate(const Options& options) {
  check_known(options, {"sf", "out", "threads"});
  if (!options.contains("sf") || !options.contains("out")) {
    std::fputs(kUsage, stderr);
    return 2;
  }
  double scale_factor = parse_number<double>(options.at("sf"), "scale factor");
  int threads =
      options.contains("threads") ? parse_number<int>(options.at("threads"), "thread count") : 0;
  floe::tpch::make_scale(scale_factor);  // reject a bad scale factor before creating the directory
  std::filesystem::create_directories(options.at("out"));
  floe::tpch::write_tbl_files(scale_factor, options.at("out"), threads);
  return 0;
}

int run(const Options& options) {
  check_known(options, {"sf", "threads", "runs", "queries", "validate", "json", "tpch-dir",
                        "storage", "setup", "no-duckdb", "query-files", "mode"});
  if (!options.contains("sf")) {
    std::fputs(kUsage, stderr);
    return 2;
  }
  floe::tpch::RunOptions run_options;
  run_options.scale_factor = parse_number<double>(options.at("sf"), "scale factor");
  run_options.threads = options.contains("threads")
                            ? parse_number<int>(options.at("threads"), "thread count")
                            : static_cast<int>(std::max(1u, std::thread::hardware_concurrency()));
  if (options.contains("runs"))
    run_options.runs = parse_number<int>(options.at("runs"), "run count");
  if (options.contains("queries"))
    run_options.queries = floe::tpch::parse_query_list(options.at("queries"));
  run_options.validate = options.contains("validate");
  run_options.tpch_dir =
      options.contains("tpch-dir") ? options.at("tpch-dir") : FLOE_SOURCE_DIR "/bench/tpch";
  run_options.progress = floe::tpch::make_stderr_progress();
  if (options.contains("storage")) {
    const std::string& storage = options.at("storage");
    if (storage != "frozen" && storage != "hot")
      throw floe::Error("invalid storage \"" + storage + "\": expected frozen or hot");
    run_options.freeze = storage == "frozen";
  }
  if (options.contains("setup")) run_options.setup = options.at("setup");
  if (options.contains("mode")) {
    std::stringstream modes(options.at("mode"));
    for (std::string mode; std::getline(modes, mode, ',');) {
      if (mode != "compiled" && mode != "vectorized" && mode != "adaptive")
        throw floe::Error("invalid mode \"" + mode + "\": expected compiled, vectorized or adaptive");
      run_options.modes.push_back(mode);
    }
  }
  run_options.duckdb = !options.contains("no-duckdb");
  if (options.contains("query-files")) {
    std::stringstream files(options.at("query-files"));
    for (std::string file; std::getline(files, file, ',');) run_options.query_files.push_back(file);
  }

  std::vector<floe::tpch::QueryReport> reports = floe::tpch::run_tpch(run_options);
  floe::tpch::print_report_table(stdout, reports);
  if (options.contains("json")) {
    std::ofstream json(options.at("json"));
    floe::tpch::write_report_json(json, reports);
    if (!json.flush()) throw floe::Error("could not write \"" + options.at("json") + "\"");
  }
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  floe::keep_freed_memory_for_reuse();
  std::string_view command = argc >= 2 ? argv[1] : "";
  if (command != "generate" && command != "run") {
    std::fputs(kUsage, stderr);
    return 2;
  }
  try {
    Options options = parse_options(argc, argv);
    return command == "generate" ? generate(options) : run(options);
  } catch (const std::exception& error) {
    std::fprintf(stderr, "floe-tpch: %s\n", error.what());
    return 1;
  }
}
