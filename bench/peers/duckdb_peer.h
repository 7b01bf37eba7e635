// DuckDB as a side-by-side peer, loaded at run time from libduckdb.so (the npm package
// @duckdb/node-bindings-linux-x64, see bench/fetch-duckdb.sh). Never a build dependency.
#pragma once

#include <memory>
#include <string>

namespace floe::bench {

class DuckDbPeer {
 public:
  // Null when the library is not found (FLOE_DUCKDB_LIB, then ~/.cache/floe/duckdb/). An
  // in-memory database, or a database file at `database_file` when it is not empty.
  static std::unique_ptr<DuckDbPeer> open_if_available(const std::string& database_file = "");
  ~DuckDbPeer();

  // Runs one statement; returns the number of result rows. Throws floe::Error on failure.
  uint64_t execute(const std::string& sql);
  // The first column of the first row as text (for sanity checks).
  std::string scalar(const std::string& sql);
  const std::string& library_path() const { return path_; }

 private:
  struct Api;
  DuckDbPeer() = default;
  std::unique_ptr<Api> api_;
  void* library_ = nullptr;
  void* database_ = nullptr;
  void* connection_ = nullptr;
  std::string path_;
};

}  // namespace floe::bench
