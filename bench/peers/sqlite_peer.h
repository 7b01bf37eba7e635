// SQLite (Debian's libsqlite3) as a side-by-side peer, in memory.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

struct sqlite3;

namespace floe::bench {

class SqlitePeer {
 public:
  SqlitePeer();
  ~SqlitePeer();
  SqlitePeer(const SqlitePeer&) = delete;
  SqlitePeer& operator=(const SqlitePeer&) = delete;

  // Runs SQL (possibly several statements); returns the number of rows of the last one.
  uint64_t execute(const std::string& sql);
  // Loads a '|'-delimited TPC-H .tbl file (trailing '|') into an existing table.
  uint64_t load_tbl(const std::string& table, size_t column_count, const std::string& path);

 private:
  sqlite3* db_ = nullptr;
};

}  // namespace floe::bench
