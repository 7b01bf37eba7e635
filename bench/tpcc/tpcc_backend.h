// The database under test behind one interface: floe (SQL text, or the record-level API)
// and SQLite (prepared statements). The transactions (tpcc_transactions.h)
// are written once against Session.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <stdexcept>
#include <string>
#include <variant>
#include <vector>

#include "bench/tpcc/tpcc_statements.h"

namespace floe::tpcc {

// A parameter or result value: NULL, an integer, a decimal as double, or a string
// (timestamps are strings 'YYYY-MM-DD HH:MM:SS').
using Field = std::variant<std::monostate, int64_t, double, std::string>;
using Row = std::vector<Field>;

int64_t as_int(const Field& field);
double as_double(const Field& field);
const std::string& as_string(const Field& field);

// An error of the driver or of a database under test, with its message.
class DriverError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// A retryable conflict (floe's SerializationFailure, SQLite's SQLITE_BUSY/LOCKED): the
// driver rolls back, counts an abort and runs the transaction again.
class ConflictError : public DriverError {
 public:
  using DriverError::DriverError;
};

// One connection; used by one thread at a time.
class Session {
 public:
  virtual ~Session() = default;
  virtual void begin() = 0;
  virtual void commit() = 0;
  virtual void rollback() = 0;
  // Runs one of the transactions' statements with its $n parameters; returns its rows.
  virtual std::vector<Row> execute(StatementId statement, const std::vector<Field>& params) = 0;
  // Runs ad-hoc SQL (consistency checks, schema); returns its rows.
  virtual std::vector<Row> query(const std::string& sql) = 0;
};

// Rows of one table for the initial population, given in the table's column order.
class TableLoader {
 public:
  virtual ~TableLoader() = default;
  virtual void add(const Row& row) = 0;
  // Loads the rows added so far; the loader can be used again afterwards.
  virtual void flush() = 0;
};

// Which data floe keeps in compressed Data Blocks during a run (`--freeze`):
//   kAuto   floe's default policy: bulk loads freeze the chunks they fill (the population),
//           the background freezer full chunks untouched for a while;
//   kNever  everything stays in hot chunks (SET freeze_policy = never);
//   kCold   everything hot except order_line's cold chunks, which the driver freezes after
//           the population and then every second while the transactions run
//           (floe_cold_freezer.h; the Data Blocks paper's §5.3).
enum class FreezeMode { kAuto, kNever, kCold };
const char* freeze_mode_name(FreezeMode mode);  // auto, never, cold

class Backend {
 public:
  virtual ~Backend() = default;
  virtual std::string name() const = 0;
  virtual std::unique_ptr<Session> connect() = 0;
  virtual std::unique_ptr<TableLoader> loader(const std::string& table, size_t columns) = 0;
  // Where the time of the transactions' statements went, when the backend knows (one line;
  // empty otherwise).
  virtual std::string statement_profile() const { return {}; }
  // Before the population: how the backend freezes data (SQLite has no Data Blocks and
  // ignores it).
  virtual void set_freeze_mode(FreezeMode) {}
  // Under FreezeMode::kCold: freezes the cold order lines now; the number of chunks frozen.
  virtual size_t freeze_cold() { return 0; }
};

enum class Engine { kFloe, kSqlite };
enum class Api { kSql, kRecord };

// Throws DriverError with a clear message for a combination that does not exist (SQLite's
// record-level API).
std::unique_ptr<Backend> make_backend(Engine engine, Api api);

}  // namespace floe::tpcc
