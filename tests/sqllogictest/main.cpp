// floe-sqllogictest: runs sqllogictest files (or every *.test file under directories).
//   floe-sqllogictest [--mode compiled|vectorized|adaptive] [--setup SQL] PATH...
// --setup runs SQL (settings) on each file's fresh connection first, e.g. the suite again
// under SET scan_mode = 'jit'.
#include <algorithm>
#include <filesystem>
#include <iostream>
#include <string>
#include <vector>

#include "tests/sqllogictest/slt_runner.h"

namespace {

int usage() {
  std::cerr << "usage: floe-sqllogictest [--mode compiled|vectorized|adaptive] [--setup SQL] "
               "FILE_OR_DIRECTORY...\n";
  return 2;
}

std::vector<std::string> collect_files(const std::vector<std::string>& paths) {
  std::vector<std::string> files;
  for (const std::string& path : paths) {
    if (!std::filesystem::is_directory(path)) {
      files.push_back(path);
      continue;
    }
    std::vector<std::string> found;
    for (const auto& entry : std::filesystem::recursive_directory_iterator(path)) {
      if (entry.is_regular_file() && entry.path().extension() == ".test")
        found.push_back(entry.path().string());
    }
    std::sort(found.begin(), found.end());
    files.insert(files.end(), found.begin(), found.end());
  }
  return files;
}

}  // namespace

int main(int argc, char** argv) {
  std::string mode = "compiled";
  std::string setup;
  std::vector<std::string> paths;
  for (int i = 1; i < argc; ++i) {
    std::string arg = argv[i];
    if (arg == "--mode" && i + 1 < argc) {
      mode = argv[++i];
    } else if (arg == "--setup" && i + 1 < argc) {
      setup = argv[++i];
    } else if (arg.rfind("--mode=", 0) == 0) {
      mode = arg.substr(7);
    } else if (!arg.empty() && arg[0] == '-') {
      return usage();
    } else {
      paths.push_back(arg);
    }
  }
  if (paths.empty()) return usage();
  if (mode == "vectorized" || mode == "adaptive") {
    // The mode is a connection setting: set first, then the file's own setup.
    setup = "set execution_mode = '" + mode + "'" + (setup.empty() ? "" : "; " + setup);
  } else if (mode != "compiled") {
    std::cerr << "floe-sqllogictest: unknown mode \"" << mode
              << "\" (compiled, vectorized or adaptive)\n";
    return 2;
  }
  floe::SltRunner runner(std::cerr, setup);
  int files = 0, records = 0, failures = 0;
  for (const std::string& file : collect_files(paths)) {
    floe::SltSummary summary = runner.run_file(file);
    ++files;
    records += summary.records;
    failures += summary.failures;
  }
  std::cout << files << " files, " << records << " records, " << failures << " failed\n";
  return failures ? 1 : 0;
}
