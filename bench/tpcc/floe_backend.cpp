#include "bench/tpcc/floe_backend.h"

#include <unistd.h>

#include <array>
#include <chrono>
#include <climits>
#include <cstdio>
#include <fstream>
#include <mutex>
#include <optional>
#include <stdexcept>

#include "bench/tpcc/floe_fields.h"
#include "bench/tpcc/floe_record_session.h"
#include "engine/api/floe.h"

namespace floe::tpcc {

namespace {

using api::Connection;
using api::Database;
using api::PreparedStatement;
using api::Result;
using api::SerializationFailure;
using api::Timings;
using api::Value;

// A parameter as the literal SQL text would have it: integers as integer (int4 when it
// fits, so that `w_id = $1` compares like `w_id = 5` and uses the index), decimals and
// strings as untyped literals that take the type their use gives them.
Value to_value(const Field& field) {
  if (std::holds_alternative<std::monostate>(field)) return Value();
  if (const auto* integer = std::get_if<int64_t>(&field)) {
    if (*integer >= INT32_MIN && *integer <= INT32_MAX)
      return Value::integer(static_cast<int32_t>(*integer));
    return Value::big_int(*integer);
  }
  if (const auto* real = std::get_if<double>(&field))
    return Value::literal(Value::double_value(*real).to_string());
  return Value::literal(std::get<std::string>(field));
}

std::vector<Row> to_rows(const Result& result) {
  std::vector<Row> rows;
  rows.reserve(result.row_count());
  for (size_t r = 0; r < result.row_count(); ++r) {
    Row& row = rows.emplace_back();
    row.reserve(result.column_count());
    for (size_t c = 0; c < result.column_count(); ++c) row.push_back(to_field(result.value(r, c)));
  }
  return rows;
}

// The phases of the transactions' statements (Result::timings), summed over all sessions.
class StatementProfile {
 public:
  void add(const Timings& timings, double wall_ms) {
    std::lock_guard lock(mutex_);
    ++statements_;
    sum_.parse_ms += timings.parse_ms;
    sum_.plan_ms += timings.plan_ms;
    sum_.codegen_ms += timings.codegen_ms;
    sum_.compile_ms += timings.compile_ms;
    sum_.execute_ms += timings.execute_ms;
    wall_ms_ += wall_ms;
  }
  std::string to_string() const {
    std::lock_guard lock(mutex_);
    if (statements_ == 0) return {};
    double n = static_cast<double>(statements_);
    double phases =
        sum_.parse_ms + sum_.plan_ms + sum_.codegen_ms + sum_.compile_ms + sum_.execute_ms;
    char text[320];
    std::snprintf(text, sizeof(text),
                  "%llu statements, per statement: %.3f ms = parse %.3f, plan %.3f, codegen "
                  "%.3f, compile %.3f, execute %.3f, other %.3f",
                  static_cast<unsigned long long>(statements_), wall_ms_ / n, sum_.parse_ms / n,
                  sum_.plan_ms / n, sum_.codegen_ms / n, sum_.compile_ms / n, sum_.execute_ms / n,
                  (wall_ms_ - phases) / n);
    return text;
  }

 private:
  mutable std::mutex mutex_;
  uint64_t statements_ = 0;
  Timings sum_;
  double wall_ms_ = 0;
};

// Runs a floe call; a write-write conflict becomes the driver's retryable ConflictError.
template <typename Call>
auto run(const Call& call) {
  try {
    return call();
  } catch (const SerializationFailure& failure) {
    throw ConflictError(failure.what());
  }
}

// Each transaction statement is prepared on its first use, once per connection
// (Connection::prepare: planned and compiled once), then executed with its parameters.
class FloeSession : public Session {
 public:
  FloeSession(Database& database, StatementProfile& profile)
      : connection_(database), profile_(profile) {}

  void begin() override {
    run([&] { return connection_.query("BEGIN"); });
  }
  void commit() override {
    run([&] { return connection_.query("COMMIT"); });
  }
  void rollback() override {
    run([&] { return connection_.query("ROLLBACK"); });
  }

  std::vector<Row> execute(StatementId statement, const std::vector<Field>& params) override {
    auto& prepared = prepared_[static_cast<size_t>(statement)];
    if (!prepared)
      prepared.emplace(run([&] { return connection_.prepare(statement_sql(statement)); }));
    values_.clear();
    for (size_t i = 0; i < prepared->parameter_count(); ++i)
      values_.push_back(to_value(params.at(i)));
    auto start = std::chrono::steady_clock::now();
    Result result = run([&] { return prepared->execute(values_); });
    profile_.add(result.timings(),
                 std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start)
                     .count());
    return to_rows(result);
  }

  std::vector<Row> query(const std::string& sql) override {
    return to_rows(run([&] { return connection_.query(sql); }));
  }

 private:
  Connection connection_;
  StatementProfile& profile_;
  std::array<std::optional<PreparedStatement>, kStatementCount> prepared_;
  std::vector<Value> values_;
};

// Rows in COPY's text format in a temporary file, loaded by COPY FROM on flush.
class FloeLoader : public TableLoader {
 public:
  FloeLoader(Database& database, std::string table)
      : connection_(database), table_(std::move(table)) {
    char path[] = "/tmp/floe-tpcc-XXXXXX";
    int fd = mkstemp(path);
    if (fd < 0) throw std::runtime_error("cannot create a temporary file in /tmp");
    close(fd);
    path_ = path;
    out_.open(path_, std::ios::trunc);
  }
  ~FloeLoader() override { std::remove(path_.c_str()); }

  void add(const Row& row) override {
    for (size_t i = 0; i < row.size(); ++i) {
      if (i) out_ << '\t';
      const Field& field = row[i];
      if (std::holds_alternative<std::monostate>(field))
        out_ << "\\N";
      else if (const auto* integer = std::get_if<int64_t>(&field))
        out_ << *integer;
      else if (const auto* real = std::get_if<double>(&field))
        out_ << Value::double_value(*real).to_string();
      else
        out_ << std::get<std::string>(field);  // generated strings: no tabs or backslashes
    }
    out_ << '\n';
  }

  void flush() override {
    out_.close();
    connection_.query("COPY " + table_ + " FROM '" + path_ + "' (FORMAT text)");
    out_.open(path_, std::ios::trunc);
  }

 private:
  Connection connection_;
  std::string table_;
  std::string path_;
  std::ofstream out_;
};

class FloeSqlBackend : public Backend {
 public:
  explicit FloeSqlBackend(bool record) : record_(record) {}
  std::string name() const override { return record_ ? "floe (record)" : "floe"; }
  std::unique_ptr<Session> connect() override {
    if (record_) return make_floe_record_session(database_);
    return std::make_unique<FloeSession>(database_, profile_);
  }
  std::unique_ptr<TableLoader> loader(const std::string& table, size_t) override {
    return std::make_unique<FloeLoader>(database_, table);
  }
  std::string statement_profile() const override { return profile_.to_string(); }
  void set_freeze_mode(FreezeMode mode) override {
    if (mode != FreezeMode::kAuto) Connection(database_).query("SET freeze_policy = never");
  }
  // order_line's cold chunks (the Data Blocks paper's §5.3): full hot chunks whose lines are
  // all delivered (Delivery is the only transaction that changes an order line, so nothing
  // changes their rows again). The CALL holds the statement lock alone, like the background
  // freezer: transactions wait between their statements.
  size_t freeze_cold() override {
    return Connection(database_)
        .query("call freeze_settled('order_line', 'ol_delivery_d')")
        .affected_rows();
  }

 private:
  bool record_;  // sessions on the record-level API
  Database database_;
  StatementProfile profile_;
};

}  // namespace

std::unique_ptr<Backend> make_floe_sql_backend() {
  return std::make_unique<FloeSqlBackend>(false);
}

std::unique_ptr<Backend> make_floe_record_backend() {
  return std::make_unique<FloeSqlBackend>(true);
}

}  // namespace floe::tpcc
