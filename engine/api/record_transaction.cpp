#include "engine/api/record_transaction.h"

#include <algorithm>

#include "engine/api/index_range_predicate.h"
#include "engine/api/record_key.h"
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
  // An index finds rows the writer beside is still appending: not there.
  if (row_in_chunk(row_id) >= table.readable_rows(row_id >> kChunkShift)) return std::nullopt;
  const ChunkVersions* versions = table.chunk(row_id >> kChunkShift).versions();
  if (!versions) return RowVersion{};
  RowVersion version = visible_version(*versions, row_in_chunk(row_id), snapshot);
  if (!version.exists) return std::nullopt;
  return version;
}

// A column of a visible version into `out`: the before-image of the oldest change the
// snapshot cannot see, else the newest value.
void read_visible(const Table& table, uint64_t row_id, size_t column, const RowVersion& version,
                  RecordValue& out) {
  const SqlType& type = table.columns()[column].type;
  if (const Value* before = version.before_image(column)) {
    out.reset(type, before->is_null());
    if (!before->is_null()) before->write_physical(out.physical());  // strings: views of it
    return;
  }
  out.reset(type, !table.chunk(row_id >> kChunkShift)
                       .physical_value(row_in_chunk(row_id), column, type.physical(),
                                       out.physical()));
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
  auto lock = connection.database_.lock_statements(StatementAccess::kWrite);
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
  // A rollback can take DDL back: then nothing may run beside.
  auto lock = database.lock_statements(connection_.block_.changed_schema
                                           ? StatementAccess::kExclusive
                                           : StatementAccess::kWrite);
  const bool aborted = connection_.block_.aborted;
  // A rollback can take DDL back.
  if ((!commit || aborted) && connection_.block_.changed_schema) database.bump_schema_version();
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
    lock.emplace(connection_.database_.lock_statements(writes ? StatementAccess::kWrite
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

namespace {

// A RecordKey of Value parts (the Value-based calls go through the lean path).
RecordKey key_of_values(const RecordIndex& index, const std::vector<Value>& values) {
  const size_t columns = index.index->constraint().columns.size();
  if (values.size() > columns)
    throw Error("index \"" + index.index->constraint().name + "\" has " +
                std::to_string(columns) + " key columns, not " + std::to_string(values.size()));
  RecordKey key(index);
  for (const Value& value : values) key.add(value);
  return key;
}

}  // namespace

std::optional<RowRef> TransactionScope::lookup(const RecordIndex& index,
                                               const std::vector<Value>& key) {
  return lookup(key_of_values(index, key));
}

void TransactionScope::scan_range(const RecordIndex& index, const std::optional<IndexBound>& low,
                                  const std::optional<IndexBound>& high, RowVisitor visit) {
  std::optional<RecordKey> low_key, high_key;
  std::optional<RecordBound> from, to;
  if (low) from.emplace(RecordBound{low_key.emplace(key_of_values(index, low->prefix)),
                                    low->inclusive});
  if (high) to.emplace(RecordBound{high_key.emplace(key_of_values(index, high->prefix)),
                                   high->inclusive});
  if (!low && !high) {
    run(false, [&] {
      log_index_read(index, std::nullopt, std::nullopt);
      scan_keys(index, std::nullopt, std::nullopt, visit);
    });
    return;
  }
  scan_range(from, to, visit);
}

std::optional<RowRef> TransactionScope::lookup(const RecordKey& key) {
  if (key.has_null()) return std::nullopt;  // NULL equals nothing
  return run(false, [&]() -> std::optional<RowRef> {
    const RecordIndex& index = key.index();
    log_index_read(index, RecordBound{key}, RecordBound{key});
    if (!key.complete() || !index.index->unique()) {
      std::optional<RowRef> found;
      const std::optional<std::string> stop = UniqueIndex::successor(std::string(key.bytes()));
      scan_keys(index, key.bytes(), stop, [&found](RowRef row) {
        found = row;
        return false;
      });
      return found;
    }
    // A whole key without NULLs names at most one entry of a unique index: its holder, then
    // the deleted rows it took the key from, one of which an older snapshot may see.
    std::optional<uint64_t> row_id = index.index->find(key.bytes());
    if (!row_id) return std::nullopt;
    for (; row_id; row_id = index.index->predecessor(*row_id))
      if (visible(*index.table, *row_id, transaction_->snapshot()))
        return RowRef{index.table, *row_id};
    return std::nullopt;
  });
}

void TransactionScope::scan_range(const std::optional<RecordBound>& low,
                                  const std::optional<RecordBound>& high, RowVisitor visit) {
  const RecordKey* any = low ? &low->key : high ? &high->key : nullptr;
  if (!any) throw Error("scan_range needs a RecordKey bound");
  for (const std::optional<RecordBound>* bound : {&low, &high}) {
    if (!*bound) continue;
    if ((*bound)->key.has_null()) throw Error("an index bound cannot be NULL");
    if ((*bound)->key.index().index != any->index().index)
      throw Error("the bounds of scan_range are keys of different indexes");
  }
  run(false, [&] {
    log_index_read(any->index(), low, high);
    std::optional<std::string> start, stop;
    if (!UniqueIndex::key_range(low ? std::optional<std::string>(low->key.bytes()) : std::nullopt,
                                low && low->inclusive,
                                high ? std::optional<std::string>(high->key.bytes()) : std::nullopt,
                                high && high->inclusive, start, stop))
      return;
    scan_keys(any->index(), start, stop, visit);
  });
}

void TransactionScope::log_index_read(const RecordIndex& index,
                                      const std::optional<RecordBound>& low,
                                      const std::optional<RecordBound>& high) {
  if (!transaction_->serializable()) return;
  auto typed = [&](const std::optional<RecordBound>& bound) -> std::optional<IndexBound> {
    if (!bound) return std::nullopt;
    const std::vector<size_t>& columns = index.index->constraint().columns;
    IndexBound typed{{}, bound->inclusive};
    for (size_t part = 0; part < bound->key.values().size(); ++part)
      typed.prefix.push_back(cast_value(bound->key.values()[part],
                                        index.table->columns()[columns[part]].type));
    return typed;
  };
  transaction_->reads().add(*index.table,
                            index_range_predicate(*index.index, typed(low), typed(high)));
}

void TransactionScope::scan_keys(const RecordIndex& index, std::optional<std::string_view> start,
                                 std::optional<std::string_view> stop, RowVisitor visit) {
  const Table& table = *index.table;
  const Snapshot& snapshot = transaction_->snapshot();
  struct ScanFlag {  // the callback's reads run under this scan's lock
    bool& flag;
    bool before;
    ~ScanFlag() { flag = before; }
  } flag{scanning_, scanning_};
  scanning_ = true;
  // One pointer captured: std::function keeps it without allocating.
  struct Scan {
    const Table& table;
    const Snapshot& snapshot;
    const RecordIndex& index;
    RowVisitor visit;
  } scan{table, snapshot, index, visit};
  index.index->scan_keys(start, stop, [state = &scan](uint64_t row_id) {
    if (!visible(state->table, row_id, state->snapshot)) return true;
    return state->visit(RowRef{state->index.table, row_id});
  });
}

std::vector<Value> TransactionScope::read(RowRef row, const std::vector<size_t>& columns) {
  std::vector<RecordValue> values;
  read(row, columns, values);
  std::vector<Value> result;
  result.reserve(values.size());
  for (const RecordValue& value : values) result.push_back(value.to_value());
  return result;
}

Value TransactionScope::read(RowRef row, size_t column) { return read_value(row, column).to_value(); }

void TransactionScope::read(RowRef row, const std::vector<size_t>& columns,
                            std::vector<RecordValue>& out) {
  run(false, [&] {
    check_row(row);
    std::optional<RowVersion> version = visible(*row.table, row.row_id, transaction_->snapshot());
    if (!version) throw Error("the row does not exist in this transaction");
    out.resize(columns.size());
    for (size_t i = 0; i < columns.size(); ++i) {
      if (columns[i] >= row.table->columns().size()) throw Error("invalid column number");
      read_visible(*row.table, row.row_id, columns[i], *version, out[i]);
    }
  });
}

RecordValue TransactionScope::read_value(RowRef row, size_t column) {
  return run(false, [&] {
    check_row(row);
    std::optional<RowVersion> version = visible(*row.table, row.row_id, transaction_->snapshot());
    if (!version) throw Error("the row does not exist in this transaction");
    if (column >= row.table->columns().size()) throw Error("invalid column number");
    RecordValue value;
    read_visible(*row.table, row.row_id, column, *version, value);
    return value;
  });
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
    this->changes().update_row(table, row.row_id, columns, std::move(values));
  });
}

RowRef TransactionScope::insert(const RecordTable& table, std::vector<Value> values) {
  return run(true, [&] {
    Table& target = table.table();
    const std::vector<ColumnDef>& columns = target.columns();
    if (values.size() > columns.size())
      throw Error("INSERT has more expressions than target columns");
    if (values.size() < columns.size())
      throw Error("INSERT has more target columns than expressions");
    // The row is cast in place and moved, never copied (strings own their bytes).
    std::vector<std::vector<Value>> rows;
    std::vector<Value>& row = rows.emplace_back(std::move(values));
    for (size_t c = 0; c < row.size(); ++c)
      if (!(row[c].type() == columns[c].type)) row[c] = cast_value(row[c], columns[c].type);
    RowChanges& row_changes = changes();
    const RowConstraints& constraints = row_changes.constraints(target);
    constraints.check_row(row);
    row_changes.insert_rows(target, rows, constraints);
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
