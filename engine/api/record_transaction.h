// A transaction block as an object (Connection::begin), and on it the record-level path for
// stored procedures: rows looked up by index key, read, updated, inserted, deleted and
// scanned over an index range, with no SQL per call. Each record operation runs like one SQL
// statement of the block: under the statement lock, in the block's transaction, with the same
// MVCC (undo entries and version chains, write-write conflicts -> SerializationFailure;
// Neumann, Mühlbauer & Kemper, SIGMOD 2015, §2), index maintenance and constraint checks
// (engine/api/row_changes.h) as INSERT, UPDATE and DELETE; a failed operation leaves no
// partial effect and aborts the block (PostgreSQL's rules). Reads see the transaction's
// snapshot and its own writes.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "engine/api/database.h"
#include "engine/api/floe.h"
#include "engine/api/record_value.h"

namespace floe {

class RecordKey;
class RowChanges;
class TransactionScope;

// A row found through the record-level path: valid in its transaction until the row is
// deleted, or updated while it lies in a frozen chunk (which moves it to a hot chunk, Data
// Blocks paper §5.3: look it up again).
struct RowRef {
  Table* table = nullptr;
  uint64_t row_id = 0;
};

// One index of a table (its PRIMARY KEY or UNIQUE constraint, or CREATE INDEX).
struct RecordIndex {
  Table* table = nullptr;
  const UniqueIndex* index = nullptr;
};

// A table resolved once by name (TransactionScope::table). It stays valid for the
// transactions of its database until DDL changes or drops the table.
class RecordTable {
 public:
  explicit RecordTable(Table& table) : table_(&table) {}
  Table& table() const { return *table_; }
  // A column's position, or PostgreSQL's error for a missing column.
  size_t column(std::string_view name) const;
  // The index named `name` (t_pkey, t_a_key, a CREATE INDEX name), or an error.
  RecordIndex index(std::string_view name) const;
  // The primary key's index, or an error when the table has none.
  RecordIndex primary_key() const;

 private:
  Table* table_;
};

// scan_range's callback: a reference to any callable taking a RowRef and returning whether
// to go on, without copying or allocating (the callable must outlive the call).
using RowVisitor = api::FunctionRef<bool(RowRef)>;

// One end of a key range of the lean path: a key (a prefix of the index's columns, as an
// IndexBound), inclusive or not.
struct RecordBound {
  const RecordKey& key;
  bool inclusive = true;
};

// Connection::begin's transaction block: commit() or rollback() ends it; destroyed while
// still open, it rolls back. SQL through the connection (query, prepared statements) runs in
// the same block meanwhile.
class TransactionScope {
 public:
  explicit TransactionScope(Connection& connection);
  ~TransactionScope();
  TransactionScope(const TransactionScope&) = delete;
  TransactionScope& operator=(const TransactionScope&) = delete;

  // Makes the changes visible to later transactions. A block aborted by an error rolls back
  // instead, and commit() then throws "current transaction is aborted".
  void commit();
  void rollback();
  // Whether the block is still open (not committed or rolled back, here or by SQL).
  bool active() const;

  // SQL in this transaction (Connection::query).
  Result query(std::string_view sql);

  RecordTable table(std::string_view name);

  // The first row (in key, then row id order) the snapshot sees whose key starts with `key`
  // (every key column for a point lookup); values are converted to the key columns' types.
  std::optional<RowRef> lookup(const RecordIndex& index, const std::vector<Value>& key);
  // Calls visit for every row the snapshot sees whose key lies between `low` and `high` (an
  // absent bound: unlimited), in key order, until visit returns false. The callback may read
  // rows but not change them (collect the rows first), run SQL or end the transaction; it
  // must not use other connections of the database (the scan holds the statement lock).
  void scan_range(const RecordIndex& index, const std::optional<IndexBound>& low,
                  const std::optional<IndexBound>& high, RowVisitor visit);
  // Column values of a row as the transaction sees it.
  std::vector<Value> read(RowRef row, const std::vector<size_t>& columns);
  Value read(RowRef row, size_t column);

  // ---- the lean path: keys encoded into reused buffers, values read into caller storage ----
  // lookup with a RecordKey (engine/api/record_key.h): a whole key of a unique index is one
  // tree descent.
  std::optional<RowRef> lookup(const RecordKey& key);
  // scan_range with RecordKey bounds (an absent bound: unlimited); scan_prefix visits the
  // rows whose key starts with `prefix`.
  void scan_range(const std::optional<RecordBound>& low, const std::optional<RecordBound>& high,
                  RowVisitor visit);
  void scan_prefix(const RecordKey& prefix, RowVisitor visit) {
    scan_range(RecordBound{prefix}, RecordBound{prefix}, visit);
  }
  // Column values of a row into `out` (resized to columns.size()) and one column's value:
  // no Value, no allocation once `out` has grown (record_value.h: strings are views).
  void read(RowRef row, const std::vector<size_t>& columns, std::vector<RecordValue>& out);
  RecordValue read_value(RowRef row, size_t column);

  // Sets columns (column position, value) of a row; values are converted to the columns'
  // types with an assignment cast. Constraints and foreign-key actions as in UPDATE.
  void update(RowRef row, const std::vector<std::pair<size_t, Value>>& changes);
  // Inserts a row: one value per column, in column order. Constraints as in INSERT.
  RowRef insert(const RecordTable& table, std::vector<Value> values);
  // Deletes a row, with the foreign-key actions of DELETE.
  void erase(RowRef row);

 private:
  // Runs one record operation as a statement of the block: a failure takes its changes back
  // and aborts the block.
  template <typename Operation>
  auto run(bool writes, Operation&& operation);
  // Ends the block with COMMIT or ROLLBACK (transaction_statement.cpp).
  void end(bool commit);
  RowChanges& changes();
  // Serializable validation checks what an index read covered, as SQL scans log theirs
  // (index_range_predicate.h; SIGMOD 2015, §3.1 precision locking).
  void log_index_read(const RecordIndex& index, const std::optional<RecordBound>& low,
                      const std::optional<RecordBound>& high);
  // Visits the rows the snapshot sees whose key lies in [start, stop) of the encoded keys
  // (absent: unlimited).
  void scan_keys(const RecordIndex& index, std::optional<std::string_view> start,
                 std::optional<std::string_view> stop, RowVisitor visit);

  Connection& connection_;
  Transaction* transaction_;  // the block's, while active
  bool scanning_ = false;     // inside scan_range's callback: the lock is held
  std::unique_ptr<StatementContext> context_;
  std::unique_ptr<RowChanges> changes_;  // bound constraints, rebound after DDL
  uint64_t changes_schema_ = 0;
};

}  // namespace floe
