// floe's public embedded API (docs/api.md): the one header a program includes. It includes
// only standard headers; every class holds the engine behind a pointer (pimpl), so programs
// depend on nothing internal. The names live in namespace floe::api because the engine's own
// floe::Database, Connection, Value, Error and Transaction are used across the engine
// (docs/api.md, "Names").
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <type_traits>
#include <utility>
#include <vector>

namespace floe::api {

// The SQL types (docs/sql.md, "Types").
enum class TypeId : uint8_t {
  kBoolean,
  kSmallInt,
  kInteger,
  kBigInt,
  kNumeric,  // numeric(precision, scale)
  kDouble,
  kDate,
  kTimestamp,
  kInterval,
  kChar,     // character(length)
  kVarchar,  // character varying(length); length 0: unbounded
  kText,
  kUnknown,  // an untyped NULL or literal (Value::literal)
};

struct Type {
  TypeId id = TypeId::kUnknown;
  uint8_t precision = 0;  // numeric only
  uint8_t scale = 0;      // numeric only
  uint32_t length = 0;    // character and character varying; 0 means unbounded

  // PostgreSQL's spelling: "integer", "numeric(15,2)", "character varying(25)".
  std::string name() const;
  // smallint, integer, bigint, numeric and double precision (shown right-aligned).
  bool is_numeric() const;
  bool operator==(const Type&) const = default;
};

// PostgreSQL's interval: months, days and microseconds, kept apart.
struct Interval {
  int32_t months = 0;
  int32_t days = 0;
  int64_t micros = 0;
  bool operator==(const Interval&) const = default;
};

// One SQL value: a parameter of a prepared statement or a cell of a result.
class Value {
 public:
  Value() = default;  // NULL of unknown type

  static Value null(Type type = {});
  static Value boolean(bool value);
  static Value small_int(int16_t value);
  static Value integer(int32_t value);
  static Value big_int(int64_t value);
  // An exact decimal from its text ("-12.50"): numeric(precision, scale) of its digits, or
  // the given ones (the value rounded to `scale` digits).
  static Value numeric(std::string_view text);
  static Value numeric(std::string_view text, uint8_t precision, uint8_t scale);
  // numeric(precision, scale) from its unscaled integer (RecordValue::as_int64's form).
  static Value numeric_unscaled(int64_t unscaled, uint8_t precision, uint8_t scale);
  static Value double_value(double value);
  static Value date(int32_t days_since_1970);
  static Value timestamp(int64_t micros_since_1970);
  static Value interval(Interval value);
  static Value text(std::string value);
  // A value of `type` from its text: character(n), character varying(n), text, or numeric
  // (the text is checked where the value is used). Other types throw Error (42804).
  static Value string(std::string value, Type type);
  // An untyped literal, as a quoted constant in SQL: converted to the type it is used as
  // ("2024-02-29" for a date parameter, "1 day" for an interval).
  static Value literal(std::string text);

  const Type& type() const { return type_; }
  bool is_null() const { return null_; }
  bool as_bool() const { return integral_ != 0; }
  // Integers; dates as days and timestamps as microseconds since 1970-01-01.
  int64_t as_int64() const { return integral_; }
  // double precision, and numeric (rounded to the nearest double).
  double as_double() const;
  const Interval& as_interval() const { return interval_; }
  // Strings and literals; a numeric's digits.
  const std::string& as_string() const { return string_; }
  // PostgreSQL's text output ("NULL" for NULL).
  std::string to_string() const;

 private:
  static Value of(Type type, int64_t integral);  // a non-NULL value

  Type type_;
  bool null_ = true;
  int64_t integral_ = 0;
  double double_ = 0;
  Interval interval_;
  std::string string_;
};

// An error of a statement or call: PostgreSQL's primary message text, its SQLSTATE and, for a
// statement, the byte offset in the SQL it points to.
class Error : public std::runtime_error {
 public:
  Error(const std::string& message, std::string sql_state, int position = -1)
      : std::runtime_error(message), sql_state_(std::move(sql_state)), position_(position) {}
  // Five characters, e.g. "42P01" (undefined table); "XX000" where floe has no class yet.
  const std::string& sql_state() const { return sql_state_; }
  // 0-based byte offset into the statement text, or -1 when unknown.
  int position() const { return position_; }

 private:
  std::string sql_state_;
  int position_;
};

// A write-write conflict, or a serializable transaction's failed validation (SQLSTATE
// 40001): the transaction is rolled back; run it again.
class SerializationFailure : public Error {
 public:
  explicit SerializationFailure(const std::string& message) : Error(message, "40001") {}
};

// The report the shell prints for an error, as psql does: "Error: <message>" and, when the
// position is known, the statement's line with a caret under the spot. Ends with a line break.
std::string format_error(std::string_view message, int position, std::string_view statement);

// Time spent in each phase of a statement, in milliseconds.
struct Timings {
  double parse_ms = 0;
  double plan_ms = 0;
  double codegen_ms = 0;
  double compile_ms = 0;
  double execute_ms = 0;
  // The shell's ".timer on" line: "Time: parse 0.010 ms, ..., total 1.234 ms\n".
  std::string to_string() const;
};

// How Result::render draws a result: the shell's .mode formats.
enum class OutputMode { kBox, kCsv, kMarkdown, kLine, kList };
std::optional<OutputMode> parse_output_mode(std::string_view name);  // "box", "csv", ...
std::string_view output_mode_name(OutputMode mode);

class Result {
 public:
  Result(Result&&) noexcept;
  Result& operator=(Result&&) noexcept;
  ~Result();

  // "SELECT 3", "INSERT 0 1", "CREATE TABLE", ...
  const std::string& command_tag() const;
  // A query's rows (SELECT, RETURNING), as opposed to a command's.
  bool has_rows() const;
  size_t column_count() const;
  // Columns and rows count from 0; one the result does not have throws std::out_of_range.
  const std::string& column_name(size_t column) const;
  Type column_type(size_t column) const;
  size_t row_count() const;
  bool is_null(size_t row, size_t column) const;
  Value value(size_t row, size_t column) const;
  // Rows that INSERT, UPDATE or DELETE changed; a query's row count.
  uint64_t affected_rows() const;
  // PostgreSQL's NOTICEs of the statements that ran (e.g. a capped SET).
  const std::vector<std::string>& notices() const;
  Timings timings() const;
  // The rows as the shell prints them in `mode`, ending with a line break (box mode adds
  // psql's "(N rows)" footer; csv mode quotes as COPY ... CSV does).
  std::string render(OutputMode mode = OutputMode::kBox) const;

 private:
  friend class Connection;
  friend class PreparedStatement;
  friend class Transaction;
  struct Impl;
  explicit Result(std::unique_ptr<Impl> impl);
  std::unique_ptr<Impl> impl_;
};

class Connection;
struct EngineAccess;

class Database {
 public:
  // ":memory:" is the only path until durability lands.
  explicit Database(const std::string& path = ":memory:");
  ~Database();
  Database(const Database&) = delete;
  Database& operator=(const Database&) = delete;

  // The tables, sorted by name.
  std::vector<std::string> table_names() const;
  // CREATE TABLE text of a table (columns, NOT NULL, PRIMARY KEY and UNIQUE); nullopt when
  // there is no such table.
  std::optional<std::string> table_definition(std::string_view name) const;

 private:
  friend class Connection;
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

class PreparedStatement;
class Transaction;

// ---- The record-level path (docs/api.md, "The record-level path") ----

// A reference to a callable, neither copied nor allocated: the record path's callbacks take
// any lambda this way. The callable must outlive the call, as an argument does.
template <typename Signature>
class FunctionRef;
template <typename Return, typename... Args>
class FunctionRef<Return(Args...)> {
 public:
  template <typename Callable,
            typename = std::enable_if_t<!std::is_same_v<std::decay_t<Callable>, FunctionRef>>>
  FunctionRef(Callable&& callable)  // NOLINT: implicit, so that callers pass lambdas
      : callable_(const_cast<void*>(static_cast<const void*>(std::addressof(callable)))),
        call_([](void* target, Args... args) -> Return {
          return (*static_cast<std::remove_reference_t<Callable>*>(target))(
              std::forward<Args>(args)...);
        }) {}
  Return operator()(Args... args) const { return call_(callable_, std::forward<Args>(args)...); }

 private:
  void* callable_;
  Return (*call_)(void*, Args...);
};

// A row found by the record path: valid in its transaction until the row is deleted or an
// update moves it (of a row in a frozen Data Block, or of a key column: look it up again).
struct RowRef {
  void* table = nullptr;
  uint64_t row_id = 0;
};

// One index of a table: its PRIMARY KEY or a UNIQUE constraint, or one of CREATE INDEX.
class RecordIndex {
 public:
  RecordIndex() = default;

 private:
  friend class RecordTable;
  friend class RecordKey;
  friend class Transaction;
  void* table_ = nullptr;
  const void* index_ = nullptr;
};

// A table resolved once by name (Transaction::table); valid until DDL changes or drops it.
class RecordTable {
 public:
  // A column's position; a missing one throws PostgreSQL's error (42703).
  size_t column(std::string_view name) const;
  // The index named `name` (t_pkey, t_a_key, a CREATE INDEX name), or an error.
  RecordIndex index(std::string_view name) const;
  RecordIndex primary_key() const;

 private:
  friend class Transaction;
  explicit RecordTable(void* table) : table_(table) {}
  void* table_;
};

// A key of one index, encoded part by part into a buffer the caller keeps and refills:
// clear(), then add() per key column (converted to the column's type; a NULL finds nothing).
// Every key column of a unique index makes a point lookup, fewer a prefix.
class RecordKey {
 public:
  explicit RecordKey(const RecordIndex& index);
  RecordKey(RecordKey&&) noexcept;
  RecordKey& operator=(RecordKey&&) noexcept;
  ~RecordKey();

  RecordKey& clear();
  RecordKey& add(int64_t value);
  RecordKey& add(std::string_view value);
  RecordKey& add(const Value& value);

 private:
  friend class Transaction;
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

// One end of a key range: a key (or a prefix of one), inclusive or not.
struct RecordBound {
  const RecordKey& key;
  bool inclusive = true;
};

// A column value read into caller storage, with no Value and no allocation. A string is a
// view into the table or the transaction's undo buffer, valid until the transaction's next
// record operation or statement: copy it to keep it.
class RecordValue {
 public:
  RecordValue();
  bool is_null() const;
  Type type() const;
  // Integer types, boolean and date (days since 1970-01-01); a numeric's unscaled value
  // (type().scale digits after the point).
  int64_t as_int64() const;
  double as_double() const;  // double precision
  std::string_view as_string() const;  // character, character varying and text
  Value to_value() const;  // an owning copy

 private:
  friend class Transaction;
  alignas(16) unsigned char engine_[32];  // the engine's RecordValue (trivially copyable)
};

// A session on a database. Connections may be used from different threads (one thread per
// connection at a time); their statements take turns.
class Connection {
 public:
  explicit Connection(Database& database);
  // Rolls back a transaction block left open.
  ~Connection();
  Connection(const Connection&) = delete;
  Connection& operator=(const Connection&) = delete;

  // Runs every statement of `sql` and returns the last one's result; throws Error. A failed
  // statement leaves no partial effect. Outside a transaction block each statement is a
  // transaction of its own.
  Result query(std::string_view sql);
  // One SELECT, INSERT, UPDATE or DELETE with $1, $2, ... parameters: planned and compiled
  // once, executed many times. The statement must not outlive the connection.
  PreparedStatement prepare(std::string_view sql);
  // Opens a transaction block (as BEGIN), ended by the returned object.
  Transaction begin();
  // Whether a transaction block is open.
  bool in_transaction() const;
  // Stops the running statement (its query() throws "canceling statement due to user
  // request", SQLSTATE 57014). Safe from any thread and from a signal handler.
  void cancel();

  // Called while COPY FROM loads (rows so far) and while CALL dbgen loads (tables, progress).
  void on_copy_progress(std::function<void(uint64_t rows)> report);
  void on_load_progress(
      std::function<void(std::string_view tables, uint64_t done, uint64_t total)> report);

 private:
  friend class PreparedStatement;
  friend class Transaction;
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

// Belongs to its connection: used by one thread at a time, like the connection (executions
// reuse the objects of the previous run). Concurrent lookups take a connection each.
class PreparedStatement {
 public:
  PreparedStatement(PreparedStatement&&) noexcept;
  PreparedStatement& operator=(PreparedStatement&&) noexcept;
  ~PreparedStatement();

  size_t parameter_count() const;
  // Declared by use; unknown for a parameter INSERT, UPDATE or DELETE types at execution.
  Type parameter_type(size_t index) const;
  // Runs it with one value per parameter, each converted to its parameter's type; in the
  // connection's open transaction block, else as a transaction of its own.
  Result execute(const std::vector<Value>& parameters = {});

 private:
  friend class Connection;
  struct Impl;
  explicit PreparedStatement(std::unique_ptr<Impl> impl);
  std::unique_ptr<Impl> impl_;
};

// A transaction block (Connection::begin): commit() or rollback() ends it; destroyed while
// open, it rolls back. SQL of its connection (query, prepared statements) runs inside it. The
// connection must outlive it.
class Transaction {
 public:
  Transaction(Transaction&&) noexcept;
  Transaction& operator=(Transaction&&) noexcept;
  ~Transaction();

  // Commits; throws (having rolled back) when an earlier error aborted the block.
  void commit();
  void rollback();
  // Open: neither committed nor rolled back.
  bool active() const;
  // Connection::query inside this transaction.
  Result query(std::string_view sql);

  // The record-level path: rows by index key, read, changed, inserted, deleted and scanned
  // with no SQL per call. Each operation works like one SQL statement of this block (MVCC,
  // index maintenance, constraints and foreign-key actions, the same errors); a failed one
  // takes back only its own changes and aborts the block.
  RecordTable table(std::string_view name);
  // The first row (in key order) this transaction sees whose key starts with `key`.
  std::optional<RowRef> lookup(const RecordKey& key);
  std::optional<RowRef> lookup(const RecordIndex& index, const std::vector<Value>& key);
  // Visits, in key order, the rows whose key lies between the bounds (absent: unlimited)
  // until `visit` returns false. The callback may read rows, not change them.
  void scan_range(const std::optional<RecordBound>& low, const std::optional<RecordBound>& high,
                  FunctionRef<bool(RowRef)> visit);
  void scan_prefix(const RecordKey& prefix, FunctionRef<bool(RowRef)> visit);
  Value read(RowRef row, size_t column);
  std::vector<Value> read(RowRef row, const std::vector<size_t>& columns);
  // The lean reads: into caller storage (`out` is resized to columns.size()).
  void read(RowRef row, const std::vector<size_t>& columns, std::vector<RecordValue>& out);
  RecordValue read_value(RowRef row, size_t column);
  // Sets columns (position, value), converted to the columns' types as UPDATE does.
  void update(RowRef row, const std::vector<std::pair<size_t, Value>>& changes);
  // One value per column, in column order, as INSERT converts them.
  RowRef insert(const RecordTable& table, const std::vector<Value>& values);
  void erase(RowRef row);

 private:
  friend class Connection;
  struct Impl;
  explicit Transaction(std::unique_ptr<Impl> impl);
  std::unique_ptr<Impl> impl_;
};

// Keeps freed memory in the process for reuse instead of returning it to the system, which
// makes repeated large queries faster (a process-wide setting of the allocator; floe's own
// programs call it first thing).
void keep_freed_memory_for_reuse();

}  // namespace floe::api
