// The predicates a serializable transaction read (Neumann, Mühlbauer & Kemper, SIGMOD 2015,
// §3.1, precision locking): per table, the restrictions of each scan that read it, a
// conjunction of ScanRestrictions; a scan without restrictions reads the whole table. At
// commit the transaction checks the before- and after-images of the rows that transactions
// committed since its start changed against these predicates (engine/txn/
// serializable_validation.h): a row that satisfies one was a read this transaction missed.
// A predicate here covers at least the rows the scan read (the restrictions the generated
// code checks on top only narrow it), so the check never misses a conflict.
#pragma once

#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <vector>

#include "runtime/array_matcher.h"
#include "runtime/scan_restriction.h"
#include "storage/value.h"

namespace floe {

class Table;

class PredicateLog {
 public:
  // Logs a scan of `table` with `restrictions` (all its rows when none). Thread-safe.
  void add(const Table& table, const std::vector<ScanRestriction>& restrictions);

  bool empty() const;
  // Whether any logged predicate of `table` holds for the row whose column values
  // `value_of` gives (a whole-table read holds for every row). A restriction whose column
  // no longer is what it was (DDL since) holds.
  bool reads(const Table& table, const std::function<Value(size_t column)>& value_of) const;
  // Whether a scan of `table` was logged.
  bool reads_table(const Table& table) const;

 private:
  struct Predicate {
    std::vector<ScanRestriction> restrictions;
    std::vector<std::unique_ptr<ArrayMatcher>> matchers;  // per restriction (value_passes)
    std::vector<PhysicalType> types;  // per restriction, its column's when logged
  };
  struct TableReads {
    bool whole = false;  // once set, the predicates no longer matter
    std::vector<Predicate> predicates;
  };

  mutable std::mutex mutex_;
  std::map<const Table*, TableReads> tables_;
};

}  // namespace floe
