#include "bench/peers/sqlite_peer.h"

#include <sqlite3.h>

#include <fstream>

#include "storage/error.h"

namespace floe::bench {

SqlitePeer::SqlitePeer() {
  if (sqlite3_open(":memory:", &db_) != SQLITE_OK) throw Error("sqlite3_open failed");
}

SqlitePeer::~SqlitePeer() { sqlite3_close(db_); }

uint64_t SqlitePeer::execute(const std::string& sql) {
  const char* tail = sql.c_str();
  uint64_t rows = 0;
  while (*tail) {
    sqlite3_stmt* statement = nullptr;
    if (sqlite3_prepare_v2(db_, tail, -1, &statement, &tail) != SQLITE_OK)
      throw Error(std::string("SQLite: ") + sqlite3_errmsg(db_));
    if (!statement) break;  // trailing whitespace or comment
    rows = 0;
    int status;
    while ((status = sqlite3_step(statement)) == SQLITE_ROW) ++rows;
    sqlite3_finalize(statement);
    if (status != SQLITE_DONE) throw Error(std::string("SQLite: ") + sqlite3_errmsg(db_));
  }
  return rows;
}

uint64_t SqlitePeer::load_tbl(const std::string& table, size_t column_count, const std::string& path) {
  std::ifstream in(path);
  if (!in) throw Error("cannot open " + path);
  std::string insert = "INSERT INTO " + table + " VALUES (";
  for (size_t i = 0; i < column_count; ++i) insert += i ? ",?" : "?";
  insert += ")";
  sqlite3_stmt* statement = nullptr;
  execute("BEGIN");
  if (sqlite3_prepare_v2(db_, insert.c_str(), -1, &statement, nullptr) != SQLITE_OK)
    throw Error(std::string("SQLite: ") + sqlite3_errmsg(db_));
  std::string line;
  uint64_t rows = 0;
  while (std::getline(in, line)) {
    size_t start = 0;
    for (size_t column = 0; column < column_count; ++column) {
      size_t bar = line.find('|', start);
      if (bar == std::string::npos) bar = line.size();
      // Bound as text; SQLite's column affinity stores numbers as numbers.
      sqlite3_bind_text(statement, static_cast<int>(column + 1), line.data() + start,
                        static_cast<int>(bar - start), SQLITE_TRANSIENT);
      start = bar + 1;
    }
    if (sqlite3_step(statement) != SQLITE_DONE) throw Error(std::string("SQLite: ") + sqlite3_errmsg(db_));
    sqlite3_reset(statement);
    ++rows;
  }
  sqlite3_finalize(statement);
  execute("COMMIT");
  return rows;
}

}  // namespace floe::bench
