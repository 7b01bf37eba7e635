// One transaction (Neumann, Mühlbauer & Kemper, SIGMOD 2015, §2): its id, its start
// timestamp, and its undo buffer of before-images (storage/row_versions.h). Changes happen in
// place in the table; each leaves an UndoEntry at the head of the row's version chain, so
// that readers with older snapshots see the row as it was and rollback can restore it.
// Writing statements hold the database's statement lock alone (engine/api/statement_lock.h),
// so the writes of one transaction never run beside another's or beside a reader; readers of
// other transactions only hold snapshots. A serializable transaction also logs the
// predicates its scans read (runtime/predicate_log.h), which its commit validates
// (serializable_validation.h).
#pragma once

#include <cstdint>
#include <deque>
#include <vector>

#include "engine/txn/isolation_level.h"
#include "runtime/predicate_log.h"
#include "storage/row_versions.h"
#include "storage/table.h"

namespace floe {

class Transaction {
 public:
  Transaction(uint64_t id, uint64_t start) : id_(id), snapshot_{start, id} {}
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

  // Records rows a statement appended: the table's rows from `old_row_count` on, counted in
  // chunk order (as Table::truncate counts them).
  void record_append(Table& table, uint64_t old_row_count);
  // Deletes a row this transaction sees. Throws SerializationFailure when another
  // transaction changed it since this one started (a write-write conflict).
  void delete_row(Table& table, uint64_t row_id);
  // Sets `columns` of a row this transaction sees to `values` (of the columns' types, NOT NULL
  // checked): in place, or, when update_moves_row, as a delete and an insert at the table's
  // end. Enforces the unique indexes. Throws like delete_row.
  void update_row(Table& table, uint64_t row_id, const std::vector<uint32_t>& columns,
                  const std::vector<Value>& values);
  // Whether such an update moves the row: a frozen row (its Data Block is immutable, Data
  // Blocks paper §5.3), and a row whose key in a unique index changes, so that the old version
  // keeps its key in the index for older snapshots (a deleted row keeps its index entries).
  static bool update_moves_row(const Table& table, uint64_t row_id,
                               const std::vector<uint32_t>& columns);

  // A position in the undo buffer (statement start, savepoint) and the rollback to it:
  // applies the before-images of every later change, newest first, indexes included.
  size_t mark() const { return undo_.size(); }
  void rollback_to(size_t mark);

  // Called by the TransactionManager on commit: stamps the entries with the commit timestamp.
  void publish(uint64_t commit_timestamp);
  // Unlinks every entry from its version chain (all readers see the newest state), drops the
  // chunks' versions that keep nothing, and empties the undo buffer.
  void collect();

 private:
  UndoEntry& add_entry(UndoEntry::Kind kind, Table& table, uint64_t row_id);
  // Throws SerializationFailure when the row's newest change is not visible to this
  // transaction.
  void check_conflict(const Table& table, uint64_t row_id) const;
  void undo(UndoEntry& entry);

  uint64_t id_;
  Snapshot snapshot_;
  uint64_t commit_timestamp_ = 0;
  IsolationLevel isolation_ = kDefaultIsolation;
  bool queried_ = false;
  PredicateLog reads_;
  std::deque<UndoEntry> undo_;  // entries never move: version chains point at them
};

}  // namespace floe
