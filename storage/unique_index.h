// A PRIMARY KEY or UNIQUE constraint of a table, enforced through an Adaptive Radix Tree
// (storage/art.h) from the binary-comparable key of a row (storage/art_key.h) to its row id.
// A key with a NULL column is not indexed: NULLs are distinct, PostgreSQL's default.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "storage/art.h"

namespace floe {

class Table;
class Value;

struct KeyConstraint {
  std::string name;  // as PostgreSQL names it: t_pkey, t_a_key, t_a_b_key
  std::vector<size_t> columns;
  bool primary = false;
};

class UniqueIndex {
 public:
  UniqueIndex(const Table& table, KeyConstraint constraint);

  const KeyConstraint& constraint() const { return constraint_; }
  size_t size() const { return tree_.size(); }

  // Appends the key of a row to `key`; false when a key column is NULL.
  bool row_key(uint64_t row_id, std::string& key) const;
  // The key of one non-null value per key column.
  std::string key_of(const std::vector<Value>& values) const;
  // The row holding a key.
  std::optional<uint64_t> find(std::string_view key) const { return tree_.find(key); }

  // Adds a row, or throws PostgreSQL's unique violation when its key is taken.
  void insert(uint64_t row_id);
  // Removes a row's entry, if it has one.
  void erase(uint64_t row_id);
  // Indexes every row of the table into the empty index, in parallel (after a bulk load), or
  // throws the unique violation and leaves the index empty.
  void build();
  void clear() { tree_.clear(); }

 private:
  [[noreturn]] void throw_violation(uint64_t row_id) const;

  const Table& table_;
  KeyConstraint constraint_;
  Art tree_;
};

}  // namespace floe
