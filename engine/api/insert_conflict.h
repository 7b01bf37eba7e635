// INSERT ... ON CONFLICT [(columns) | ON CONSTRAINT name] DO NOTHING | DO UPDATE SET ...
// [WHERE ...]: each proposed row is looked up in the arbiter indexes (the unique indexes the
// clause names, or every one for DO NOTHING without a target) and either inserted, skipped,
// or turned into an update of the row holding its key, whose SET and WHERE see that row (as
// the table or its alias) and the proposed one (as EXCLUDED), as in PostgreSQL. Row by row,
// through the statement's transaction (row_changes.h).
#pragma once

#include <optional>
#include <unordered_set>
#include <vector>

#include "engine/api/row_changes.h"
#include "engine/api/statement_context.h"

namespace floe {

class ConflictHandler {
 public:
  // Throws PostgreSQL's errors for a clause that names no unique index of the table.
  ConflictHandler(const PgQuery__OnConflictClause& clause, Table& table, const std::string& alias,
                  StatementContext& context);

  // Inserts a proposed row (complete and checked but for foreign keys), or applies the
  // clause to the row holding its key. Returns the row as inserted or updated, or nullopt
  // when neither happened (DO NOTHING, or the WHERE condition is not true).
  std::optional<std::vector<Value>> insert(const std::vector<Value>& row);
  // The rows inserted (not updated): their foreign keys are checked once all are in.
  const std::vector<std::vector<Value>>& inserted() const { return inserted_; }

 private:
  // The live row holding the proposed row's key in an arbiter index, if any.
  std::optional<uint64_t> conflicting_row(const std::vector<Value>& row) const;

  Table& table_;
  StatementContext& context_;
  RowChanges changes_;
  bool update_ = false;  // DO UPDATE
  std::vector<const UniqueIndex*> arbiters_;
  std::vector<uint32_t> set_columns_;
  std::vector<plan::ExprPtr> set_values_;  // over (existing row, proposed row)
  plan::ExprPtr where_;                    // the same; null without WHERE
  std::unordered_set<uint64_t> touched_;   // rows this statement inserted or updated
  std::vector<std::vector<Value>> inserted_;
};

}  // namespace floe
