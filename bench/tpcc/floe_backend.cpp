#include "bench/tpcc/floe_backend.h"

#include <unistd.h>

#include <array>
#include <chrono>
#include <cstdio>
#include <fstream>
#include <mutex>

#include "bench/tpcc/floe_record_session.h"
#include "engine/api/database.h"
#include "storage/error.h"

namespace floe::tpcc {

namespace {

// A statement's text split at its $n parameters: text[0] $params[0] text[1] ... text[n].
struct SqlTemplate {
  std::vector<std::string> text;
  std::vector<size_t> params;  // 0-based
};

SqlTemplate parse_template(const std::string& sql) {
  SqlTemplate out;
  out.text.emplace_back();
  for (size_t i = 0; i < sql.size(); ++i) {
    if (sql[i] == '$' && i + 1 < sql.size() &&
        std::isdigit(static_cast<unsigned char>(sql[i + 1]))) {
      size_t number = 0;
      while (i + 1 < sql.size() && std::isdigit(static_cast<unsigned char>(sql[i + 1])))
        number = number * 10 + static_cast<size_t>(sql[++i] - '0');
      out.params.push_back(number - 1);
      out.text.emplace_back();
    } else {
      out.text.back() += sql[i];
    }
  }
  return out;
}

// The SQL literal of a parameter; negative numbers in parentheses (so that `x - $1` cannot
// become a comment).
void append_literal(std::string& sql, const Field& field) {
  if (std::holds_alternative<std::monostate>(field)) {
    sql += "NULL";
  } else if (const auto* integer = std::get_if<int64_t>(&field)) {
    sql += *integer < 0 ? "(" + std::to_string(*integer) + ")" : std::to_string(*integer);
  } else if (const auto* real = std::get_if<double>(&field)) {
    std::string text = format_double(*real);
    sql += *real < 0 ? "(" + text + ")" : text;
  } else {
    sql += '\'';
    for (char c : std::get<std::string>(field)) sql += c == '\'' ? "''" : std::string(1, c);
    sql += '\'';
  }
}

std::vector<Row> to_rows(const Result& result) {
  std::vector<Row> rows;
  rows.reserve(result.row_count());
  for (const auto& values : result.rows()) {
    Row& row = rows.emplace_back();
    row.reserve(values.size());
    for (const Value& value : values) row.push_back(to_field(value));
  }
  return rows;
}

// The phases of the transactions' statements (Result::timings), summed over all sessions.
class StatementProfile {
 public:
  void add(const PhaseTimings& timings, double wall_ms) {
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
  PhaseTimings sum_;
  double wall_ms_ = 0;
};

class FloeSession : public Session {
 public:
  FloeSession(Database& database, const std::array<SqlTemplate, kStatementCount>& templates,
              StatementProfile& profile)
      : connection_(database), templates_(templates), profile_(profile) {}

  void begin() override { run("BEGIN"); }
  void commit() override { run("COMMIT"); }
  void rollback() override { run("ROLLBACK"); }

  std::vector<Row> execute(StatementId statement, const std::vector<Field>& params) override {
    const SqlTemplate& sql_template = templates_[static_cast<size_t>(statement)];
    sql_.clear();
    for (size_t i = 0; i < sql_template.params.size(); ++i) {
      sql_ += sql_template.text[i];
      append_literal(sql_, params.at(sql_template.params[i]));
    }
    sql_ += sql_template.text.back();
    auto start = std::chrono::steady_clock::now();
    Result result = run(sql_);
    profile_.add(result.timings(),
                 std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start)
                     .count());
    return to_rows(result);
  }

  std::vector<Row> query(const std::string& sql) override { return to_rows(run(sql)); }

 private:
  Result run(const std::string& sql) {
    try {
      return connection_.query(sql);
    } catch (const SerializationFailure& failure) {
      throw ConflictError(failure.what());
    }
  }

  Connection connection_;
  const std::array<SqlTemplate, kStatementCount>& templates_;
  StatementProfile& profile_;
  std::string sql_;
};

// Rows in COPY's text format in a temporary file, loaded by COPY FROM on flush.
class FloeLoader : public TableLoader {
 public:
  FloeLoader(Database& database, std::string table)
      : connection_(database), table_(std::move(table)) {
    char path[] = "/tmp/floe-tpcc-XXXXXX";
    int fd = mkstemp(path);
    if (fd < 0) throw Error("cannot create a temporary file in /tmp");
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
        out_ << format_double(*real);
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
  explicit FloeSqlBackend(bool record) : record_(record) {
    for (size_t i = 0; i < kStatementCount; ++i)
      templates_[i] = parse_template(statement_sql(static_cast<StatementId>(i)));
  }
  std::string name() const override { return record_ ? "floe (record)" : "floe"; }
  std::unique_ptr<Session> connect() override {
    if (record_) return make_floe_record_session(database_);
    return std::make_unique<FloeSession>(database_, templates_, profile_);
  }
  std::unique_ptr<TableLoader> loader(const std::string& table, size_t) override {
    return std::make_unique<FloeLoader>(database_, table);
  }
  std::string statement_profile() const override { return profile_.to_string(); }

 private:
  bool record_;  // sessions on the record-level API
  Database database_;
  std::array<SqlTemplate, kStatementCount> templates_;
  StatementProfile profile_;
};

}  // namespace

Field to_field(const Value& value) {
  if (value.is_null()) return {};
  const SqlType& type = value.type();
  if (type.is_integer()) return value.as_int64();
  if (type.id == TypeId::kDecimal) {
    double divisor = 1;
    for (int i = 0; i < type.scale; ++i) divisor *= 10;
    return static_cast<double>(value.as_int128()) / divisor;
  }
  if (type.id == TypeId::kDouble) return value.as_double();
  if (type.is_string()) return value.as_string();
  return value.to_string();
}

std::unique_ptr<Backend> make_floe_sql_backend() {
  return std::make_unique<FloeSqlBackend>(false);
}

std::unique_ptr<Backend> make_floe_record_backend() {
  return std::make_unique<FloeSqlBackend>(true);
}

}  // namespace floe::tpcc
