// An index of a table on one or more key columns, kept in an Adaptive Radix Tree
// (storage/art.h) from the binary-comparable key of a row (storage/art_key.h) to its row id:
// the index of a PRIMARY KEY or UNIQUE constraint, or one made by CREATE [UNIQUE] INDEX.
//
// Every row is indexed, NULLs included, so that a lookup on a prefix of a composite key finds
// rows whose later key columns are NULL. Each key part starts with a byte 0x00 (a value
// follows) or 0x01 (NULL): NULLs sort after every value, as in PostgreSQL's default ASC order.
// Duplicates of a non-unique index are kept by the tree, which appends the row id to the key
// (entries of one key lie together in row id order, and a leaf stays a single row id, so lazy
// expansion keeps working). In a unique index NULLs are distinct (PostgreSQL's default): a key
// with a NULL part gets the row id appended too, so it never collides.
//
// MVCC (storage/row_versions.h): a deleted row keeps its entry until an insert takes its key
// over. The taking row then remembers the row it took the key from, its predecessor, and scans
// offer both, newest first, while a snapshot older than the delete may still see the
// predecessor; the caller's visibility check picks the one its snapshot sees (at most one).
//
// Readers beside a writer (issue 10): a reader/writer latch per index guards the tree and the
// predecessors. Changes hold it exclusively, lookups shared; a scan holds it only while it
// gathers a batch of entries and visits them unlatched, then seeks on past the batch's last
// key, so neither a long scan nor its visitor holds a writer up, and the visitor may use the
// index itself.
#pragma once

#include <functional>
#include <optional>
#include <shared_mutex>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "storage/art.h"
#include "storage/value.h"

namespace floe {

class Table;

struct KeyConstraint {
  std::string name;  // as PostgreSQL names it: t_pkey, t_a_key, t_a_b_key, t_a_idx
  std::vector<size_t> columns;
  bool primary = false;
  bool unique = true;
  // Made by CREATE INDEX rather than by a PRIMARY KEY or UNIQUE constraint of the table.
  bool standalone = false;
};

// One end of a key range: values of the first prefix.size() key columns (none NULL, each of
// its column's type). Keys compare on those columns only, so a bound on a prefix of a
// composite key takes in (inclusive) or leaves out (exclusive) every key that starts with it.
struct IndexBound {
  std::vector<Value> prefix;
  bool inclusive = true;
};

class UniqueIndex {
 public:
  UniqueIndex(const Table& table, KeyConstraint constraint);

  const KeyConstraint& constraint() const { return constraint_; }
  bool unique() const { return constraint_.unique; }
  size_t size() const;

  // Appends the key of a row to `key`.
  void row_key(uint64_t row_id, std::string& key) const;
  // The key of one non-null value for each of the first values.size() key columns.
  std::string key_of(const std::vector<Value>& values) const;
  // The first row (in row id order) holding a whole key: its newest holder, without the
  // predecessors (uniqueness and foreign-key checks need only the newest state).
  std::optional<uint64_t> find(std::string_view key) const;
  // The deleted row whose key `row_id` took over while an older snapshot may still see it.
  std::optional<uint64_t> predecessor(uint64_t row_id) const;

  // Calls visit(row_id) for every row whose key lies between `low` and `high` (an absent
  // bound: unlimited), in key order, then row id order, each followed by its predecessors;
  // stops early when visit returns false. Entries a writer adds or removes meanwhile may or
  // may not be visited; every other entry is visited once.
  void scan(const std::optional<IndexBound>& low, const std::optional<IndexBound>& high,
            const std::function<bool(uint64_t row_id)>& visit) const;
  // The same over encoded keys (key_of, append_part): rows whose key is >= `start` (absent:
  // from the first) and < `stop` (absent: to the last).
  void scan_keys(std::optional<std::string_view> start, std::optional<std::string_view> stop,
                 const std::function<bool(uint64_t row_id)>& visit) const;
  // Appends key part `part` (a key column) holding a non-NULL value, physical of the column's
  // type (storage/types.h): keys built part by part, without a Value per part.
  void append_part(std::string& key, size_t part, const void* physical) const;
  // The smallest key above every key that starts with `prefix`; none when no key is.
  static std::optional<std::string> successor(std::string prefix);
  // The encoded range [start, stop) (absent: unlimited) of the keys between the encoded
  // prefixes `low` and `high` (absent: unlimited); false when it is empty whatever the keys.
  static bool key_range(std::optional<std::string> low, bool low_inclusive,
                        std::optional<std::string> high, bool high_inclusive,
                        std::optional<std::string>& start, std::optional<std::string>& stop);
  // The rows whose key starts with `prefix` (all key columns: a point lookup), in key order.
  std::vector<uint64_t> lookup(const std::vector<Value>& prefix) const;

  // Adds a row, or throws PostgreSQL's unique violation when its key is taken.
  void insert(uint64_t row_id);
  // Removes a row's entry, if it has one; a predecessor that some snapshot may still see
  // gets the key back (a rolled-back insert leaves the index as it found it). Also how
  // garbage collection removes the entry of a row deleted for every snapshot
  // (Table::unindex_dead_rows).
  void erase(uint64_t row_id);
  // Indexes every row of the table into the empty index, in parallel (after a bulk load), or
  // throws the unique violation and leaves the index empty.
  void build();
  // The same for CREATE UNIQUE INDEX on existing rows: a duplicate key throws "could not
  // create unique index".
  void create();
  void clear();

 private:
  // Encodes the keys of every row and builds the tree; the row id of a duplicate, if any.
  std::optional<uint64_t> build_tree();
  // Key column names and a row's values: "a, b" and "1, x".
  std::pair<std::string, std::string> key_text(uint64_t row_id) const;
  [[noreturn]] void throw_violation(uint64_t row_id) const;
  // Records that `row_id` took its key over from the deleted row `holder`, and now and then
  // forgets predecessors whose delete every snapshot sees.
  void remember_predecessor(uint64_t row_id, uint64_t holder);
  // Whether some snapshot may still see the deleted row: its delete's undo entry was not
  // garbage collected yet.
  bool deleted_row_visible_to_some(uint64_t row_id) const;
  // Under the latch: predecessor() unlatched.
  std::optional<uint64_t> predecessor_of(uint64_t row_id) const;
  // build() and create(): the duplicate's row id, if any.
  std::optional<uint64_t> rebuild();

  const Table& table_;
  KeyConstraint constraint_;
  // Guards tree_, predecessors_ and prune_at_.
  mutable std::shared_mutex latch_;
  Art tree_;
  // Row that took a key over -> the row it took it from.
  std::unordered_map<uint64_t, uint64_t> predecessors_;
  size_t prune_at_ = kMinimumPrune;
  static constexpr size_t kMinimumPrune = 64;
  // Entries a scan gathers under the latch at first, and at most.
  static constexpr size_t kMinimumScanBatch = 64;
  static constexpr size_t kMaximumScanBatch = 4096;
};

}  // namespace floe
