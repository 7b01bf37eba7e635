#include "engine/api/record_transaction.h"

#include <algorithm>

#include "engine/api/index_range_predicate.h"
#include "engine/api/row_changes.h"
#include "engine/api/statement_context.h"
#include "storage/error.h"

namespace floe {

namespace {

constexpr const char* kEnded = "the transaction has already ended";
// scan_range's callback runs under the statement lock the scan holds.
constexpr const char* kInsideScan =
    "inside scan_range's callback the transaction can only read rows";

uint32_t row_in_chunk(uint64_t row_id) {
  return static_cast<uint32_t>(row_id & (kChunkCapacity - 1));
}

// The version of the row the snapshot sees, or nullopt when it sees no row there.
std::optional<RowVersion> visible(const Table& table, uint64_t row_id, const Snapshot& snapshot) {
  const ChunkVersions* versions = table.chunk(row_id >> kChunkShift).versions();
  if (!versions) return RowVersion{};
  RowVersion version = visible_version(*versions, row_in_chunk(row_id), snapshot);
  if (!version.exists) return std::nullopt;
  return version;
}

// A column of a visible version: the before-image of the oldest change the snapshot cannot
// see (updates are listed newest first), else the newest value.
Value visible_value(const Table& table, uint64_t row_id, size_t column,
                    const RowVersion& version) {
  for (auto entry = version.updates.rbegin(); entry != version.updates.rend(); ++entry) {
    const std::vector<uint32_t>& columns = (*entry)->columns;
    auto found = std::find(columns.begin(), columns.end(), column);
    if (found != columns.end()) return (*entry)->before[static_cast<size_t>(found - columns.begin())];
  }
  return table.value_at(row_id, column);
}

// Whether the key `key` lies on the allowed side of `bound` (compared on the bound's prefix).
bool within(const std::string& key, const UniqueIndex& index,
            const std::optional<IndexBound>& bound, bool low) {
  if (!bound) return true;
  const std::string limit = index.key_of(bound->prefix);
  const int order = key.compare(0, limit.size(), limit);
  if (order == 0) return bound->inclusive;
  return low ? order > 0 : order < 0;
}

// The index holds the newest keys: a row whose key a change invisible to the snapshot set
// is in range only if its visible key is (as an SQL index scan decides again on the
// before-image). A visible key with a NULL part lies in no bounded range.
bool visible_key_within(const Table& table, uint64_t row_id, const RowVersion& version,
                        const UniqueIndex& index, const std::optional<IndexBound>& low,
                        const std::optional<IndexBound>& high) {
  const std::vector<size_t>& key_columns = index.constraint().columns;
  const bool key_changed = std::any_of(
      version.updates.begin(), version.updates.end(), [&](const UndoEntry* entry) {
        return std::any_of(entry->columns.begin(), entry->columns.end(), [&](uint32_t column) {
          return std::find(key_columns.begin(), key_columns.end(), column) != key_columns.end();
        });
      });
  if (!key_changed) return true;
  std::vector<Value> key;
  for (size_t column : key_columns) {
    key.push_back(visible_value(table, row_id, column, version));
    if (key.back().is_null()) return !low && !high;
  }
  const std::string bytes = index.key_of(key);
  return within(bytes, index, low, true) && within(bytes, index, high, false);
}

// A bound with its values converted to the key columns' types.
std::optional<IndexBound> typed_bound(const RecordIndex& index,
                                      const std::optional<IndexBound>& bound) {
  if (!bound) return std::nullopt;
  const std::vector<size_t>& columns = index.index->constraint().columns;
  if (bound->prefix.size() > columns.size())
    throw Error("index \"" + index.index->constraint().name + "\" has " +
                std::to_string(columns.size()) + " key columns, not " +
                std::to_string(bound->prefix.size()));
  IndexBound typed{{}, bound->inclusive};
  for (size_t i = 0; i < bound->prefix.size(); ++i) {
    if (bound->prefix[i].is_null()) throw Error("an index bound cannot be NULL");
    typed.prefix.push_back(
        cast_value(bound->prefix[i], index.table->columns()[columns[i]].type));
  }
  return typed;
}

void check_row(const RowRef& row) {
  if (!row.table || (row.row_id >> kChunkShift) >= row.table->chunk_count() ||
      row_in_chunk(row.row_id) >= row.table->chunk(row.row_id >> kChunkShift).size())
    throw Error("invalid row reference");
}

}  // namespace

size_t RecordTable::column(std::string_view name) const {
  std::optional<size_t> column = table_->find_column(name);
  if (!column)
    throw Error("column \"" + std::string(name) + "\" of relation \"" + table_->name() +
                "\" does not exist");
  return *column;
}

RecordIndex RecordTable::index(std::string_view name) const {
  const UniqueIndex* index = table_->find_index(name);
  if (!index)
    throw Error("index \"" + std::string(name) + "\" of relation \"" + table_->name() +
                "\" does not exist");
  return {table_, index};
}

RecordIndex RecordTable::primary_key() const {
  const UniqueIndex* index = table_->primary_index();
  if (!index) throw Error("relation \"" + table_->name() + "\" has no primary key");
  return {table_, index};
}

TransactionScope Connection::begin() { return TransactionScope(*this); }

TransactionScope::TransactionScope(Connection& connection) : connection_(connection) {
  // (Checked before the lock too: inside a scan's callback the lock is taken.)
  if (connection.block_.open) throw Error("there is already a transaction in progress");
  auto lock = connection.database_.lock_statements();
  PgQuery__TransactionStmt begin = PG_QUERY__TRANSACTION_STMT__INIT;
  begin.kind = PG_QUERY__TRANSACTION_STMT_KIND__TRANS_STMT_BEGIN;
  run_transaction_control(begin, connection.block_, connection.database_.transactions());
  transaction_ = connection.block_.open.get();
  context_ = std::make_unique<StatementContext>(StatementContext{
      connection.database_.catalog(), connection.options_, connection.database_, transaction_,
      &connection.prepared_});
}

TransactionScope::~TransactionScope() {
  if (!active()) return;
  try {
    end(false);
  } catch (...) {  // a destructor must not throw; the block stays for the connection's end
  }
}

bool TransactionScope::active() const {
  return transaction_ && connection_.block_.open.get() == transaction_;
}

void TransactionScope::end(bool commit) {
  if (!active()) throw Error(kEnded);
  if (scanning_) throw Error(kInsideScan);
  Database& database = connection_.database_;
  auto lock = database.lock_statements();
  const bool aborted = connection_.block_.aborted;
  if (!commit || aborted) database.bump_schema_version();  // a rollback can take DDL back
  PgQuery__TransactionStmt control = PG_QUERY__TRANSACTION_STMT__INIT;
  control.kind = commit ? PG_QUERY__TRANSACTION_STMT_KIND__TRANS_STMT_COMMIT
                        : PG_QUERY__TRANSACTION_STMT_KIND__TRANS_STMT_ROLLBACK;
  run_transaction_control(control, connection_.block_, database.transactions());
  transaction_ = nullptr;
  changes_.reset();
  if (commit && aborted)
    throw Error("the transaction was rolled back: an earlier error aborted it");
}

void TransactionScope::commit() { end(true); }

void TransactionScope::rollback() { end(false); }

Result TransactionScope::query(std::string_view sql) {
  if (!active()) throw Error(kEnded);
  if (scanning_) throw Error(kInsideScan);
  return connection_.query(sql);
}

template <typename Operation>
auto TransactionScope::run(bool writes, Operation&& operation) {
  if (!active()) throw Error(kEnded);
  TransactionBlock& block = connection_.block_;
  if (block.aborted) throw Error(kAbortedBlock);
  if (writes && scanning_) throw Error(kInsideScan);
  std::optional<StatementLock> lock;  // reads share it (statement_lock.h)
  if (!scanning_)  // a scan holds it
    lock.emplace(connection_.database_.lock_statements(writes ? StatementAccess::kExclusive
                                                              : StatementAccess::kShared));
  SequenceSession::Scope sequences(connection_.sequences_);
  WriterScope writer(transaction_->id());
  const size_t mark = transaction_->mark();
  try {
    return operation();
  } catch (...) {
    transaction_->rollback_to(mark);
    block.aborted = true;
    throw;
  }
}

RowChanges& TransactionScope::changes() {
  const uint64_t schema = connection_.database_.schema_version();
  if (!changes_ || changes_schema_ != schema) {
    changes_ = std::make_unique<RowChanges>(*context_);
    changes_schema_ = schema;
  }
  return *changes_;
}

RecordTable TransactionScope::table(std::string_view name) {
  return run(false, [&] {
    Table* table = connection_.database_.catalog().find_table(std::string(name));
    if (!table) throw Error("relation \"" + std::string(name) + "\" does not exist");
    return RecordTable(*table);
  });
}

std::optional<RowRef> TransactionScope::lookup(const RecordIndex& index,
                                               const std::vector<Value>& key) {
  if (std::any_of(key.begin(), key.end(), [](const Value& v) { return v.is_null(); }))
    return std::nullopt;  // NULL equals nothing
  std::optional<RowRef> found;
  const std::optional<IndexBound> bound = IndexBound{key, true};
  scan_range(index, bound, bound, [&](RowRef row) {
    found = row;
    return false;
  });
  return found;
}

void TransactionScope::scan_range(const RecordIndex& index, const std::optional<IndexBound>& low,
                                  const std::optional<IndexBound>& high,
                                  const std::function<bool(RowRef)>& visit) {
  run(false, [&] {
    const std::optional<IndexBound> from = typed_bound(index, low), to = typed_bound(index, high);
    const Table& table = *index.table;
    const Snapshot& snapshot = transaction_->snapshot();
    // Serializable validation checks what the scan read (as SQL scans log theirs).
    if (transaction_->serializable())
      transaction_->reads().add(table, index_range_predicate(*index.index, from, to));
    struct ScanFlag {  // the callback's reads run under this scan's lock
      bool& flag;
      bool before;
      ~ScanFlag() { flag = before; }
    } flag{scanning_, scanning_};
    scanning_ = true;
    index.index->scan(from, to, [&](uint64_t row_id) {
      std::optional<RowVersion> version = visible(table, row_id, snapshot);
      if (!version || !visible_key_within(table, row_id, *version, *index.index, from, to))
        return true;
      return visit(RowRef{index.table, row_id});
    });
  });
}

std::vector<Value> TransactionScope::read(RowRef row, const std::vector<size_t>& columns) {
  return run(false, [&] {
    check_row(row);
    std::optional<RowVersion> version = visible(*row.table, row.row_id, transaction_->snapshot());
    if (!version) throw Error("the row does not exist in this transaction");
    std::vector<Value> values;
    values.reserve(columns.size());
    for (size_t column : columns) {
      if (column >= row.table->columns().size()) throw Error("invalid column number");
      values.push_back(visible_value(*row.table, row.row_id, column, *version));
    }
    return values;
  });
}

Value TransactionScope::read(RowRef row, size_t column) {
  return std::move(read(row, std::vector<size_t>{column})[0]);
}

void TransactionScope::update(RowRef row, const std::vector<std::pair<size_t, Value>>& changes) {
  run(true, [&] {
    check_row(row);
    Table& table = *row.table;
    std::vector<uint32_t> columns;
    std::vector<Value> values;
    for (const auto& [column, value] : changes) {
      if (column >= table.columns().size()) throw Error("invalid column number");
      if (std::find(columns.begin(), columns.end(), column) != columns.end())
        throw Error("multiple assignments to same column \"" + table.columns()[column].name +
                    "\"");
      columns.push_back(static_cast<uint32_t>(column));
      values.push_back(value);
    }
    this->changes().update_rows(table, {row.row_id}, columns, {std::move(values)});
  });
}

RowRef TransactionScope::insert(const RecordTable& table, const std::vector<Value>& values) {
  return run(true, [&] {
    Table& target = table.table();
    const std::vector<ColumnDef>& columns = target.columns();
    if (values.size() > columns.size())
      throw Error("INSERT has more expressions than target columns");
    if (values.size() < columns.size())
      throw Error("INSERT has more target columns than expressions");
    std::vector<Value> row;
    row.reserve(values.size());
    for (size_t c = 0; c < values.size(); ++c) row.push_back(cast_value(values[c], columns[c].type));
    RowChanges& row_changes = changes();
    const RowConstraints& constraints = row_changes.constraints(target);
    constraints.check_row(row);
    row_changes.insert_rows(target, {row}, constraints);
    const size_t last = target.chunk_count() - 1;
    return RowRef{&target, uint64_t{last} << kChunkShift | (target.chunk(last).size() - 1)};
  });
}

void TransactionScope::erase(RowRef row) {
  run(true, [&] {
    check_row(row);
    changes().delete_rows(*row.table, {row.row_id});
  });
}

}  // namespace floe
