#include "tpch/tbl_files.h"

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <map>
#include <memory>

#include "storage/error.h"
#include "tpch/tbl_text.h"

namespace floe::tpch {
namespace {

struct FileCloser {
  void operator()(FILE* file) const { std::fclose(file); }
};

struct OutputFile {
  std::string path;
  std::unique_ptr<FILE, FileCloser> file;
};

[[noreturn]] void throw_io_error(const char* action, const std::string& path) {
  throw Error(std::string("could not ") + action + " file \"" + path +
              "\": " + std::strerror(errno));
}

}  // namespace

void write_tbl_files(double scale_factor, const std::string& directory, int threads) {
  std::map<std::string, OutputFile, std::less<>> files;
  generate_tbl_text(scale_factor, threads, [&](std::string_view table, std::string_view text) {
    auto it = files.find(table);
    if (it == files.end()) {
      std::string path = directory + "/" + std::string(table) + ".tbl";
      FILE* file = std::fopen(path.c_str(), "wb");
      if (file == nullptr) throw_io_error("open", path);
      it = files.emplace(std::string(table), OutputFile{path, {file, {}}}).first;
    }
    if (std::fwrite(text.data(), 1, text.size(), it->second.file.get()) != text.size())
      throw_io_error("write to", it->second.path);
  });
  for (auto& [table, output] : files) {
    if (std::fclose(output.file.release()) != 0) throw_io_error("write to", output.path);
  }
}

}  // namespace floe::tpch
