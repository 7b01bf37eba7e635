// The public API's classes (engine/api/floe.h) over the engine's: each holds its engine
// object behind a pointer and turns engine errors into the public ones.
#include "engine/api/floe.h"

#include <stdexcept>

#include "engine/api/floe_convert.h"
#include "engine/api/floe_internal.h"
#include "engine/api/result_text.h"
#include "engine/api/schema_text.h"
#include "runtime/memory_policy.h"

namespace floe::api {

struct Result::Impl {
  // A cell, or std::out_of_range for a row or column the result does not have.
  const floe::Value& cell(size_t row, size_t column) const {
    return result.rows().at(row).at(column);
  }
  size_t checked_column(size_t column) const {
    if (column >= result.column_count())
      throw std::out_of_range("no result column " + std::to_string(column));
    return column;
  }
  floe::Result result;
};

struct Connection::Impl {
  explicit Impl(floe::Database& database) : connection(database) {}
  floe::Connection connection;
};

struct PreparedStatement::Impl {
  floe::PreparedStatement statement;
};


// Result

Result::Result(std::unique_ptr<Impl> impl) : impl_(std::move(impl)) {}
Result::Result(Result&&) noexcept = default;
Result& Result::operator=(Result&&) noexcept = default;
Result::~Result() = default;

const std::string& Result::command_tag() const {
  return impl_->result.command_tag();
}
bool Result::has_rows() const {
  return impl_->result.has_rows();
}
size_t Result::column_count() const {
  return impl_->result.column_count();
}
const std::string& Result::column_name(size_t column) const {
  return impl_->result.column_name(impl_->checked_column(column));
}
Type Result::column_type(size_t column) const {
  return public_type(impl_->result.column_type(impl_->checked_column(column)));
}
size_t Result::row_count() const {
  return impl_->result.row_count();
}
bool Result::is_null(size_t row, size_t column) const {
  return impl_->cell(row, column).is_null();
}
Value Result::value(size_t row, size_t column) const {
  return public_value(impl_->cell(row, column));
}
uint64_t Result::affected_rows() const {
  return impl_->result.affected_rows();
}
const std::vector<std::string>& Result::notices() const {
  return impl_->result.notices();
}

Timings Result::timings() const {
  return impl_->result.timings();
}

std::string Result::render(OutputMode mode) const {
  return format_result(result_table(impl_->result), mode);
}

// Database

Database::Database(const std::string& path)
    : impl_(with_public_errors([&] { return std::make_unique<Impl>(path); })) {}
Database::~Database() = default;

std::vector<std::string> Database::table_names() const {
  auto lock = impl_->database.lock_statements();
  return impl_->database.catalog().table_names();
}

std::optional<std::string> Database::table_definition(std::string_view name) const {
  auto lock = impl_->database.lock_statements();
  const Table* table = impl_->database.catalog().find_table(std::string(name));
  if (!table) return std::nullopt;
  return create_table_text(*table);
}

// Connection

Connection::Connection(Database& database)
    : impl_(std::make_unique<Impl>(database.impl_->database)) {}
Connection::~Connection() = default;

Result Connection::query(std::string_view sql) {
  return Result(std::make_unique<Result::Impl>(
      with_public_errors([&] { return Result::Impl{impl_->connection.query(sql)}; })));
}

PreparedStatement Connection::prepare(std::string_view sql) {
  return PreparedStatement(with_public_errors([&] {
    return std::make_unique<PreparedStatement::Impl>(
        PreparedStatement::Impl{impl_->connection.prepare(sql)});
  }));
}

Transaction Connection::begin() {
  return Transaction(
      with_public_errors([&] { return std::make_unique<Transaction::Impl>(impl_->connection); }));
}

bool Connection::in_transaction() const {
  return impl_->connection.in_transaction_block();
}

void Connection::cancel() {
  impl_->connection.cancel();
}

void Connection::on_copy_progress(std::function<void(uint64_t rows)> report) {
  impl_->connection.options().copy_progress = std::move(report);
}

void Connection::on_load_progress(
    std::function<void(std::string_view tables, uint64_t done, uint64_t total)> report) {
  impl_->connection.options().load_progress = std::move(report);
}

// PreparedStatement

PreparedStatement::PreparedStatement(std::unique_ptr<Impl> impl) : impl_(std::move(impl)) {}
PreparedStatement::PreparedStatement(PreparedStatement&&) noexcept = default;
PreparedStatement& PreparedStatement::operator=(PreparedStatement&&) noexcept = default;
PreparedStatement::~PreparedStatement() = default;

size_t PreparedStatement::parameter_count() const {
  return impl_->statement.parameter_count();
}

Type PreparedStatement::parameter_type(size_t index) const {
  return public_type(impl_->statement.parameter_type(index));
}

Result PreparedStatement::execute(const std::vector<Value>& parameters) {
  return Result(std::make_unique<Result::Impl>(with_public_errors([&] {
    std::vector<floe::Value> values;
    values.reserve(parameters.size());
    for (const Value& parameter : parameters) values.push_back(internal_value(parameter));
    return Result::Impl{impl_->statement.execute(values)};
  })));
}

// Transaction

Transaction::Transaction(std::unique_ptr<Impl> impl) : impl_(std::move(impl)) {}
Transaction::Transaction(Transaction&&) noexcept = default;
Transaction& Transaction::operator=(Transaction&&) noexcept = default;
Transaction::~Transaction() = default;

void Transaction::commit() {
  with_public_errors([&] { impl_->scope.commit(); });
}

void Transaction::rollback() {
  with_public_errors([&] { impl_->scope.rollback(); });
}

bool Transaction::active() const {
  return impl_ && impl_->scope.active();
}

Result Transaction::query(std::string_view sql) {
  return Result(std::make_unique<Result::Impl>(
      with_public_errors([&] { return Result::Impl{impl_->scope.query(sql)}; })));
}

void keep_freed_memory_for_reuse() {
  floe::keep_freed_memory_for_reuse();
}

}  // namespace floe::api
