// The public record-level path (engine/api/floe.h) over the engine's
// (engine/api/record_transaction.h): handles hold the engine's pointers, keys and values the
// engine's objects, and every call turns engine errors into the public ones.
#include <cstring>
#include <new>

#include "engine/api/floe_convert.h"
#include "engine/api/floe_internal.h"

namespace floe::api {

namespace {

static_assert(sizeof(floe::RecordValue) <= 32 && alignof(floe::RecordValue) <= 16 &&
              std::is_trivially_copyable_v<floe::RecordValue>);

floe::RowRef engine_row(RowRef row) { return {static_cast<Table*>(row.table), row.row_id}; }
RowRef public_row(floe::RowRef row) { return {row.table, row.row_id}; }

floe::RecordTable engine_table(void* table) { return floe::RecordTable(*static_cast<Table*>(table)); }

const floe::RecordValue& engine_value(const unsigned char* storage) {
  return *std::launder(reinterpret_cast<const floe::RecordValue*>(storage));
}

}  // namespace

// RecordTable

size_t RecordTable::column(std::string_view name) const {
  return with_public_errors([&] { return engine_table(table_).column(name); });
}

RecordIndex RecordTable::index(std::string_view name) const {
  return with_public_errors([&] {
    const floe::RecordIndex found = engine_table(table_).index(name);
    RecordIndex index;
    index.table_ = found.table;
    index.index_ = found.index;
    return index;
  });
}

RecordIndex RecordTable::primary_key() const {
  return with_public_errors([&] {
    const floe::RecordIndex found = engine_table(table_).primary_key();
    RecordIndex index;
    index.table_ = found.table;
    index.index_ = found.index;
    return index;
  });
}

// RecordKey

RecordKey::RecordKey(const RecordIndex& index)
    : impl_(std::make_unique<Impl>(floe::RecordIndex{
          static_cast<Table*>(index.table_), static_cast<const UniqueIndex*>(index.index_)})) {}
RecordKey::RecordKey(RecordKey&&) noexcept = default;
RecordKey& RecordKey::operator=(RecordKey&&) noexcept = default;
RecordKey::~RecordKey() = default;

RecordKey& RecordKey::clear() {
  impl_->key.clear();
  return *this;
}

RecordKey& RecordKey::add(int64_t value) {
  with_public_errors([&] { impl_->key.add(value); });
  return *this;
}

RecordKey& RecordKey::add(std::string_view value) {
  with_public_errors([&] { impl_->key.add(value); });
  return *this;
}

RecordKey& RecordKey::add(const Value& value) {
  with_public_errors([&] { impl_->key.add(internal_value(value)); });
  return *this;
}

// RecordValue

RecordValue::RecordValue() { new (engine_) floe::RecordValue(); }

bool RecordValue::is_null() const { return engine_value(engine_).is_null(); }

Type RecordValue::type() const { return public_type(engine_value(engine_).type()); }

int64_t RecordValue::as_int64() const {
  return with_public_errors([&] { return engine_value(engine_).as_int64(); });
}

double RecordValue::as_double() const { return engine_value(engine_).as_double(); }

std::string_view RecordValue::as_string() const { return engine_value(engine_).as_string(); }

Value RecordValue::to_value() const { return public_value(engine_value(engine_).to_value()); }

// Transaction: the record-level path

RecordTable Transaction::table(std::string_view name) {
  return with_public_errors([&] { return RecordTable(&impl_->scope.table(name).table()); });
}

std::optional<RowRef> Transaction::lookup(const RecordKey& key) {
  return with_public_errors([&]() -> std::optional<RowRef> {
    const std::optional<floe::RowRef> row = impl_->scope.lookup(key.impl_->key);
    if (!row) return std::nullopt;
    return public_row(*row);
  });
}

std::optional<RowRef> Transaction::lookup(const RecordIndex& index,
                                          const std::vector<Value>& key) {
  RecordKey encoded(index);
  for (const Value& value : key) encoded.add(value);
  return lookup(encoded);
}

void Transaction::scan_range(const std::optional<RecordBound>& low,
                             const std::optional<RecordBound>& high,
                             FunctionRef<bool(RowRef)> visit) {
  with_public_errors([&] {
    std::optional<floe::RecordBound> from, to;
    if (low) from.emplace(floe::RecordBound{low->key.impl_->key, low->inclusive});
    if (high) to.emplace(floe::RecordBound{high->key.impl_->key, high->inclusive});
    auto forward = [&visit](floe::RowRef row) { return visit(public_row(row)); };
    impl_->scope.scan_range(from, to, forward);
  });
}

void Transaction::scan_prefix(const RecordKey& prefix, FunctionRef<bool(RowRef)> visit) {
  scan_range(RecordBound{prefix}, RecordBound{prefix}, visit);
}

Value Transaction::read(RowRef row, size_t column) {
  return with_public_errors([&] { return public_value(impl_->scope.read(engine_row(row), column)); });
}

std::vector<Value> Transaction::read(RowRef row, const std::vector<size_t>& columns) {
  return with_public_errors([&] {
    std::vector<Value> values;
    for (const floe::Value& value : impl_->scope.read(engine_row(row), columns))
      values.push_back(public_value(value));
    return values;
  });
}

void Transaction::read(RowRef row, const std::vector<size_t>& columns,
                       std::vector<RecordValue>& out) {
  with_public_errors([&] {
    impl_->scope.read(engine_row(row), columns, impl_->values);
    out.resize(columns.size());
    for (size_t i = 0; i < columns.size(); ++i)
      std::memcpy(out[i].engine_, &impl_->values[i], sizeof(floe::RecordValue));
  });
}

RecordValue Transaction::read_value(RowRef row, size_t column) {
  return with_public_errors([&] {
    const floe::RecordValue value = impl_->scope.read_value(engine_row(row), column);
    RecordValue out;
    std::memcpy(out.engine_, &value, sizeof value);
    return out;
  });
}

void Transaction::update(RowRef row, const std::vector<std::pair<size_t, Value>>& changes) {
  with_public_errors([&] {
    std::vector<std::pair<size_t, floe::Value>> values;
    values.reserve(changes.size());
    for (const auto& [column, value] : changes) values.emplace_back(column, internal_value(value));
    impl_->scope.update(engine_row(row), values);
  });
}

RowRef Transaction::insert(const RecordTable& table, const std::vector<Value>& values) {
  return with_public_errors([&] {
    std::vector<floe::Value> row;
    row.reserve(values.size());
    for (const Value& value : values) row.push_back(internal_value(value));
    return public_row(impl_->scope.insert(engine_table(table.table_), row));
  });
}

void Transaction::erase(RowRef row) {
  with_public_errors([&] { impl_->scope.erase(engine_row(row)); });
}

}  // namespace floe::api
