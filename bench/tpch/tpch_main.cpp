// floe-tpch: TPC-H tooling. `floe-tpch generate --sf SF --out DIR [--threads N]` writes the
// eight dbgen-identical .tbl files.
#include <charconv>
#include <cstdio>
#include <filesystem>
#include <map>
#include <string>
#include <string_view>

#include "bench/tpch/scale.h"
#include "bench/tpch/tbl_files.h"
#include "storage/error.h"

namespace {

constexpr const char* kUsage =
    "usage: floe-tpch generate --sf SCALE_FACTOR --out DIRECTORY [--threads N]\n";

// "--name value" pairs after the subcommand.
std::map<std::string, std::string> parse_options(int argc, char** argv) {
  std::map<std::string, std::string> options;
  for (int i = 2; i < argc; i += 2) {
    std::string_view name = argv[i];
    if (!name.starts_with("--") || i + 1 >= argc)
      throw floe::Error("invalid argument \"" + std::string(name) + "\"");
    options[std::string(name.substr(2))] = argv[i + 1];
  }
  return options;
}

template <typename Number>
Number parse_number(const std::string& text, const char* what) {
  Number value{};
  auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (error != std::errc() || end != text.data() + text.size())
    throw floe::Error(std::string("invalid ") + what + ": \"" + text + "\"");
  return value;
}

int generate(const std::map<std::string, std::string>& options) {
  for (const auto& [name, value] : options) {
    if (name != "sf" && name != "out" && name != "threads")
      throw floe::Error("unknown option \"--" + name + "\"");
  }
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

}  // namespace

int main(int argc, char** argv) {
  if (argc < 2 || std::string_view(argv[1]) != "generate") {
    std::fputs(kUsage, stderr);
    return 2;
  }
  try {
    return generate(parse_options(argc, argv));
  } catch (const std::exception& error) {
    std::fprintf(stderr, "floe-tpch: %s\n", error.what());
    return 1;
  }
}
