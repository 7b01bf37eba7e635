// The row changes of DELETE, UPDATE and INSERT ... ON CONFLICT DO UPDATE with all that a change
// implies beyond the unique indexes (which the transaction enforces, engine/txn/): the new
// rows' NOT NULL, CHECK and foreign-key constraints, and the foreign-key actions on the rows
// of other tables that reference the changed rows (storage/foreign_key.h): NO ACTION and
// RESTRICT fail, CASCADE deletes or updates them, SET NULL and SET DEFAULT set their key
// columns, each such change again with all it implies. Everything goes through the
// statement's transaction, so a failure anywhere is undone with the statement.
#pragma once

#include <memory>
#include <unordered_map>
#include <utility>
#include <vector>

#include "engine/api/row_constraints.h"
#include "engine/api/statement_context.h"
#include "storage/foreign_key.h"

namespace floe {

class RowChanges {
 public:
  explicit RowChanges(StatementContext& context) : context_(context) {}

  // Deletes rows the statement's transaction sees; a row it already deleted is skipped.
  void delete_rows(Table& table, const std::vector<uint64_t>& rows);
  // Sets `columns` of each of `rows` to its `values` (one per column), cast to the columns'
  // types with an assignment cast. Returns the updated rows' new values (a row skipped as
  // deleted has none), and appends their new row ids to `new_row_ids` when given (an update
  // may move a row: Transaction::update_row).
  std::vector<std::vector<Value>> update_rows(Table& table, const std::vector<uint64_t>& rows,
                                              const std::vector<uint32_t>& columns,
                                              std::vector<std::vector<Value>> values,
                                              std::vector<uint64_t>* new_row_ids = nullptr);
  // One row's update (the record path): update_rows without reading the whole row when
  // nothing needs it, i.e. the table has no CHECK constraint, no value is a NULL for a NOT
  // NULL column, and no foreign key of or to the table covers a changed column. Then the
  // before-images of only the changed columns go into the undo buffer (Transaction::update_row)
  // and the unique indexes are all there is to enforce.
  void update_row(Table& table, uint64_t row_id, const std::vector<uint32_t>& columns,
                  std::vector<Value> values);
  // Appends rows (values of the column types that passed constraints.check_row) as INSERT
  // does: the unique indexes are enforced per row, the foreign keys once all rows are in (a
  // row may reference one inserted with it); a failure removes the rows again. With
  // `freeze_full_chunks` (a bulk load) the full chunks they filled freeze.
  void insert_rows(Table& table, const std::vector<std::vector<Value>>& rows,
                   const RowConstraints& constraints, bool freeze_full_chunks = false);
  // The whole row as the statement's transaction sees it now.
  static std::vector<Value> read_row(const Table& table, uint64_t row_id);
  // The table's defaults and constraints, bound once per statement.
  const RowConstraints& constraints(const Table& table);

 private:
  // The new values of updated referenced rows, by row id.
  using ReferencedRows = std::unordered_map<uint64_t, const std::vector<Value>*>;
  // Applies the foreign-key actions of a delete (`new_rows` null) or of an update of
  // referenced rows (storage/foreign_key.h).
  void apply_actions(std::vector<ReferentialAction> actions, const ReferencedRows* new_rows);

  // The foreign keys that reference a table (Catalog::references_to), once per table.
  using References = std::vector<std::pair<Table*, const ForeignKey*>>;
  const References& references_to(const Table& table);

  StatementContext& context_;
  std::unordered_map<const Table*, std::unique_ptr<RowConstraints>> constraints_;
  std::unordered_map<const Table*, References> references_;
};

}  // namespace floe
