// floe-tpcc: TPC-C 5.11 as a benchmark harness on floe, with SQLite as the peer.
//   floe-tpcc [--warehouses 5] [--threads 1] [--duration 30] [--api sql|record]
//             [--engine floe|sqlite] [--peer sqlite] [--seed N] [--json FILE]
//             [--freeze auto|never|cold]
// Exit status 1 when a run fails or a consistency condition is violated, 2 on bad usage.
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <iostream>
#include <optional>
#include <string>

#include "bench/tpcc/tpcc_driver.h"

namespace {

using floe::tpcc::Api;
using floe::tpcc::Engine;

constexpr const char* kUsage =
    "usage: floe-tpcc [--warehouses N] [--threads N] [--duration SECONDS] [--api sql|record]\n"
    "                 [--engine floe|sqlite] [--peer sqlite] [--seed N] [--json FILE]\n"
    "                 [--freeze auto|never|cold]\n";

[[noreturn]] void usage_error(const std::string& message) {
  std::fprintf(stderr, "floe-tpcc: %s\n%s", message.c_str(), kUsage);
  std::exit(2);
}

long parse_number(const std::string& option, const std::string& text, long min, long max) {
  char* end = nullptr;
  long value = std::strtol(text.c_str(), &end, 10);
  if (text.empty() || *end != '\0' || value < min || value > max) {
    usage_error(option + " takes an integer from " + std::to_string(min) + " to " +
                std::to_string(max) + ", not \"" + text + "\"");
  }
  return value;
}

Engine parse_engine(const std::string& option, const std::string& text) {
  if (text == "floe") return Engine::kFloe;
  if (text == "sqlite") return Engine::kSqlite;
  usage_error(option + " takes floe or sqlite, not \"" + text + "\"");
}

floe::tpcc::FreezeMode parse_freeze_mode(const std::string& option, const std::string& text) {
  for (auto mode : {floe::tpcc::FreezeMode::kAuto, floe::tpcc::FreezeMode::kNever,
                    floe::tpcc::FreezeMode::kCold})
    if (text == floe::tpcc::freeze_mode_name(mode)) return mode;
  usage_error(option + " takes auto, never or cold, not \"" + text + "\"");
}

}  // namespace

int main(int argc, char** argv) {
  floe::tpcc::RunOptions options;
  std::optional<Engine> peer;
  std::string json_path;
  for (int i = 1; i < argc; ++i) {
    std::string option = argv[i];
    if (option == "--help" || option == "-h") {
      std::fputs(kUsage, stdout);
      return 0;
    }
    if (i + 1 >= argc) usage_error(option == "" ? "empty option" : "missing value of " + option);
    std::string value = argv[++i];
    if (option == "--warehouses") {
      options.warehouses = static_cast<int>(parse_number(option, value, 1, 1000));
    } else if (option == "--threads") {
      options.threads = static_cast<int>(parse_number(option, value, 1, 1024));
    } else if (option == "--duration") {
      options.duration_seconds = static_cast<double>(parse_number(option, value, 1, 86400));
    } else if (option == "--seed") {
      options.seed = static_cast<uint64_t>(parse_number(option, value, 0, 1L << 40));
    } else if (option == "--api") {
      if (value != "sql" && value != "record") usage_error("--api takes sql or record");
      options.api = value == "sql" ? Api::kSql : Api::kRecord;
    } else if (option == "--engine") {
      options.engine = parse_engine(option, value);
    } else if (option == "--peer") {
      peer = parse_engine(option, value);
    } else if (option == "--freeze") {
      options.freeze = parse_freeze_mode(option, value);
    } else if (option == "--json") {
      json_path = value;
    } else {
      usage_error("unknown option " + option);
    }
  }
  try {
    floe::tpcc::RunResult result = floe::tpcc::run_tpcc(options);
    std::string json = to_json(options, result);
    std::fputs(to_report(result).c_str(), stdout);
    bool ok = result.consistency.ok();
    if (peer) {
      floe::tpcc::RunOptions peer_options = options;
      peer_options.engine = *peer;
      peer_options.api = Api::kSql;
      floe::tpcc::RunResult peer_result = floe::tpcc::run_tpcc(peer_options);
      std::fputs(to_report(peer_result).c_str(), stdout);
      if (peer_result.tps() > 0)
        std::printf("%s / %s: %.3g x tps\n", result.engine.c_str(), peer_result.engine.c_str(),
                    result.tps() / peer_result.tps());
      json.insert(json.size() - 1, ", \"peer\": " + to_json(peer_options, peer_result));
      ok &= peer_result.consistency.ok();
    }
    if (!json_path.empty()) {
      std::ofstream out(json_path);
      out << json << '\n';
      if (!out) throw floe::tpcc::DriverError("cannot write " + json_path);
    }
    return ok ? 0 : 1;
  } catch (const std::exception& error) {
    std::fprintf(stderr, "floe-tpcc: %s\n", error.what());
    return 1;
  }
}
