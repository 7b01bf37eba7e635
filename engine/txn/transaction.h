// One transaction (Neumann, Mühlbauer & Kemper, SIGMOD 2015, §2): its id, its start
// timestamp, and its undo buffer of before-images (storage/row_versions.h). Changes happen in
// place in the table; each leaves an UndoEntry at the head of the row's version chain, so
// that readers with older snapshots see the row as it was and rollback can restore it.
// One writing statement runs at a time (engine/api/statement_lock.h), beside reading
// statements of other connections, which hold snapshots and the reader latch
// (engine/txn/reader_latch.h): changes a reader must not see half-done wait for the readers
// or avoid them (an update moves its row). A serializable transaction also logs the
// predicates its scans read (runtime/predicate_log.h), which its commit validates
// (serializable_validation.h).
#pragma once

#include <cstdint>
#include <deque>
#include <functional>
#include <vector>

#include "engine/txn/isolation_level.h"
#include "engine/txn/reader_latch.h"
#include "runtime/predicate_log.h"
#include "storage/row_versions.h"
#include "storage/table.h"

namespace floe {

class Transaction {
 public:
  // `readers`: the latch of the database's reading statements; none: no reader runs beside.
  Transaction(uint64_t id, uint64_t start, ReaderLatch* readers = nullptr)
      : id_(id), snapshot_{start, id}, readers_(readers) {}
  Transaction(const Transaction&) = delete;
  Transaction& operator=(const Transaction&) = delete;

  uint64_t id() const { return id_; }
  const Snapshot& snapshot() const { return snapshot_; }
  uint64_t commit_timestamp() const { return commit_timestamp_; }

  IsolationLevel isolation() const { return isolation_; }
  void set_isolation(IsolationLevel level) { isolation_ = level; }
  bool serializable() const { return isolation_ == IsolationLevel::kSerializable; }
  // The predicates its scans read; logged only while serializable.
  PredicateLog& reads() { return reads_; }
  const PredicateLog& reads() const { return reads_; }
  // Whether a statement other than SET and SHOW ran in it (PostgreSQL then refuses to change
  // the isolation level: the snapshot is taken).
  bool queried() const { return queried_; }
  void note_query() { queried_ = true; }
  // Its changes, oldest first (validation reads the undo buffers of committed transactions).
  const std::deque<UndoEntry>& changes() const { return undo_; }

  // Appending to a table in a transaction: from construction on, readers beside do not see
  // the rows (Table::hide_appends); destruction records every row appended meanwhile in the
  // undo buffer, also when the append failed (the statement's rollback takes them back).
  class Append {
   public:
    Append(Transaction& transaction, Table& table);
    ~Append();
    Append(const Append&) = delete;
    Append& operator=(const Append&) = delete;

   private:
    Transaction& transaction_;
    Table& table_;
    uint64_t old_row_count_;
  };
  // Deletes a row this transaction sees. Throws SerializationFailure when another
  // transaction changed it since this one started (a write-write conflict).
  void delete_row(Table& table, uint64_t row_id);
  // Sets `columns` of a row this transaction sees to `values` (of the columns' types, NOT NULL
  // checked): in place, or, when update_moves_row or while readers run beside (their copy
  // must not see the values change), as a delete and an insert at the table's end. Enforces
  // the unique indexes. Returns the row id of the new version. Throws like delete_row.
  uint64_t update_row(Table& table, uint64_t row_id, const std::vector<uint32_t>& columns,
                      const std::vector<Value>& values);
  // Whether such an update moves the row: a frozen row (its Data Block is immutable, Data
  // Blocks paper §5.3), and a row whose key in a unique index changes, so that the old version
  // keeps its key in the index for older snapshots (a deleted row keeps its index entries).
  static bool update_moves_row(const Table& table, uint64_t row_id,
                               const std::vector<uint32_t>& columns);

  // A position in the undo buffer (statement start, savepoint) and the rollback to it:
  // applies the before-images of every later change, newest first, indexes included.
  size_t mark() const { return undo_.size(); }
  // Waits until no reader runs beside (ReaderLatch) when there is anything to take back.
  void rollback_to(size_t mark);
  // Runs `change` with no reading statement beside: at once when none runs, else false.
  bool try_without_readers(const std::function<void()>& change);

  // Called by the TransactionManager on commit: stamps the entries with the commit timestamp.
  void publish(uint64_t commit_timestamp);
  // Unlinks every entry from its version chain (all readers see the newest state), drops the
  // chunks' versions that keep nothing, and empties the undo buffer.
  void collect();

 private:
  UndoEntry& add_entry(UndoEntry::Kind kind, Table& table, uint64_t row_id);
  // Records rows a statement appended: the table's rows from `old_row_count` on, counted in
  // chunk order (as Table::truncate counts them); readers see them from then on.
  void record_append(Table& table, uint64_t old_row_count);
  // Throws SerializationFailure when the row's newest change is not visible to this
  // transaction.
  void check_conflict(const Table& table, uint64_t row_id) const;
  void undo(UndoEntry& entry);

  uint64_t id_;
  Snapshot snapshot_;
  uint64_t commit_timestamp_ = 0;
  IsolationLevel isolation_ = kDefaultIsolation;
  bool queried_ = false;
  ReaderLatch* readers_;
  PredicateLog reads_;
  std::deque<UndoEntry> undo_;  // entries never move: version chains point at them
};

}  // namespace floe
