#include "bench/tpcc/sqlite_backend.h"

#include <sched.h>
#include <sqlite3.h>

#include <array>
#include <atomic>


namespace floe::tpcc {

namespace {

bool is_conflict(int status) {
  int primary = status & 0xff;
  return primary == SQLITE_BUSY || primary == SQLITE_LOCKED;
}

// PostgreSQL's $n parameters as SQLite's ?n.
std::string to_sqlite_parameters(const char* sql) {
  std::string out(sql);
  for (char& c : out)
    if (c == '$') c = '?';
  return out;
}

class Connection {
 public:
  explicit Connection(const std::string& uri) {
    int flags = SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE | SQLITE_OPEN_URI;
    if (sqlite3_open_v2(uri.c_str(), &db_, flags, nullptr) != SQLITE_OK) {
      std::string message = db_ ? sqlite3_errmsg(db_) : "out of memory";
      sqlite3_close(db_);
      throw DriverError("SQLite: cannot open " + uri + ": " + message);
    }
  }
  ~Connection() { sqlite3_close(db_); }
  Connection(const Connection&) = delete;
  Connection& operator=(const Connection&) = delete;

  sqlite3* get() const { return db_; }
  [[noreturn]] void fail(int status) const {
    if (is_conflict(status)) throw ConflictError(sqlite3_errmsg(db_));
    throw DriverError(std::string("SQLite: ") + sqlite3_errmsg(db_));
  }
  void exec(const char* sql) const {
    int status = sqlite3_exec(db_, sql, nullptr, nullptr, nullptr);
    if (status != SQLITE_OK) fail(status);
  }
  sqlite3_stmt* prepare(const std::string& sql) const {
    sqlite3_stmt* statement = nullptr;
    int status = sqlite3_prepare_v2(db_, sql.c_str(), -1, &statement, nullptr);
    if (status != SQLITE_OK) fail(status);
    return statement;
  }

 private:
  sqlite3* db_ = nullptr;
};

void bind(const Connection& connection, sqlite3_stmt* statement, const std::vector<Field>& params) {
  for (size_t i = 0; i < params.size(); ++i) {
    int index = static_cast<int>(i + 1);
    const Field& field = params[i];
    int status;
    if (std::holds_alternative<std::monostate>(field))
      status = sqlite3_bind_null(statement, index);
    else if (const auto* integer = std::get_if<int64_t>(&field))
      status = sqlite3_bind_int64(statement, index, *integer);
    else if (const auto* real = std::get_if<double>(&field))
      status = sqlite3_bind_double(statement, index, *real);
    else {
      const std::string& text = std::get<std::string>(field);
      status = sqlite3_bind_text(statement, index, text.data(), static_cast<int>(text.size()),
                                 SQLITE_TRANSIENT);
    }
    if (status != SQLITE_OK) connection.fail(status);
  }
}

// Steps a bound statement to its end, collecting its rows; resets it.
std::vector<Row> run(const Connection& connection, sqlite3_stmt* statement) {
  std::vector<Row> rows;
  int status;
  while ((status = sqlite3_step(statement)) == SQLITE_ROW) {
    Row& row = rows.emplace_back();
    int columns = sqlite3_column_count(statement);
    for (int i = 0; i < columns; ++i) {
      switch (sqlite3_column_type(statement, i)) {
        case SQLITE_NULL:
          row.emplace_back();
          break;
        case SQLITE_INTEGER:
          row.emplace_back(int64_t{sqlite3_column_int64(statement, i)});
          break;
        case SQLITE_FLOAT:
          row.emplace_back(sqlite3_column_double(statement, i));
          break;
        default:
          row.emplace_back(
              std::string(reinterpret_cast<const char*>(sqlite3_column_text(statement, i)),
                          static_cast<size_t>(sqlite3_column_bytes(statement, i))));
      }
    }
  }
  sqlite3_reset(statement);
  sqlite3_clear_bindings(statement);
  if (status != SQLITE_DONE) connection.fail(status);
  return rows;
}

class SqliteSession : public Session {
 public:
  explicit SqliteSession(const std::string& uri) : connection_(uri) {}
  ~SqliteSession() override {
    for (sqlite3_stmt* statement : statements_) sqlite3_finalize(statement);
  }

  // Waits for the write lock: SQLite admits one writer; waiting is not an abort.
  void begin() override {
    for (;;) {
      int status = sqlite3_exec(connection_.get(), "BEGIN IMMEDIATE", nullptr, nullptr, nullptr);
      if (status == SQLITE_OK) return;
      if (!is_conflict(status)) connection_.fail(status);
      sched_yield();
    }
  }
  void commit() override { connection_.exec("COMMIT"); }
  void rollback() override {
    if (!sqlite3_get_autocommit(connection_.get())) connection_.exec("ROLLBACK");
  }

  std::vector<Row> execute(StatementId statement, const std::vector<Field>& params) override {
    sqlite3_stmt*& prepared = statements_[static_cast<size_t>(statement)];
    if (!prepared) prepared = connection_.prepare(to_sqlite_parameters(statement_sql(statement)));
    bind(connection_, prepared, params);
    return run(connection_, prepared);
  }

  std::vector<Row> query(const std::string& sql) override {
    sqlite3_stmt* statement = connection_.prepare(sql);
    std::vector<Row> rows;
    try {
      rows = run(connection_, statement);
    } catch (...) {
      sqlite3_finalize(statement);
      throw;
    }
    sqlite3_finalize(statement);
    return rows;
  }

 private:
  Connection connection_;
  std::array<sqlite3_stmt*, kStatementCount> statements_{};
};

class SqliteLoader : public TableLoader {
 public:
  SqliteLoader(const std::string& uri, const std::string& table, size_t columns)
      : connection_(uri) {
    std::string sql = "INSERT INTO " + table + " VALUES (";
    for (size_t i = 0; i < columns; ++i) sql += i ? ", ?" : "?";
    insert_ = connection_.prepare(sql + ")");
  }
  ~SqliteLoader() override { sqlite3_finalize(insert_); }

  // Rows wait for flush: loaders of two tables fill at once (CUSTOMER and HISTORY), and
  // SQLite admits one writing transaction at a time.
  void add(const Row& row) override { rows_.push_back(row); }
  void flush() override {
    connection_.exec("BEGIN");
    for (const Row& row : rows_) {
      bind(connection_, insert_, row);
      run(connection_, insert_);
    }
    connection_.exec("COMMIT");
    rows_.clear();
  }

 private:
  Connection connection_;
  sqlite3_stmt* insert_ = nullptr;
  std::vector<Row> rows_;
};

// The database lives while a connection to it is open: the backend keeps one.
class SqliteBackend : public Backend {
 public:
  SqliteBackend() : uri_(next_uri()), keeper_(uri_) {}
  std::string name() const override { return "sqlite"; }
  std::unique_ptr<Session> connect() override { return std::make_unique<SqliteSession>(uri_); }
  std::unique_ptr<TableLoader> loader(const std::string& table, size_t columns) override {
    return std::make_unique<SqliteLoader>(uri_, table, columns);
  }

 private:
  static std::string next_uri() {
    static std::atomic<int> counter{0};
    return "file:floe_tpcc_" + std::to_string(counter++) + "?mode=memory&cache=shared";
  }
  std::string uri_;
  Connection keeper_;
};

}  // namespace

std::unique_ptr<Backend> make_sqlite_backend() {
  return std::make_unique<SqliteBackend>();
}

}  // namespace floe::tpcc
