#include "engine/api/insert_conflict.h"

#include <algorithm>

#include "engine/api/dml_target.h"
#include "engine/sql/expression_binder.h"
#include "engine/sql/pg_node.h"
#include "engine/txn/transaction.h"
#include "storage/error.h"

namespace floe {

namespace {

// The unique indexes ON CONFLICT (columns) or ON CONSTRAINT name picks.
std::vector<const UniqueIndex*> inferred_indexes(const PgQuery__InferClause& infer,
                                                 const Table& table) {
  std::vector<const UniqueIndex*> indexes;
  if (infer.conname && *infer.conname) {
    for (const auto& index : table.unique_indexes())
      if (index->unique() && !index->constraint().standalone &&
          index->constraint().name == infer.conname)
        indexes.push_back(index.get());
    if (indexes.empty())
      throw Error("constraint \"" + std::string(infer.conname) + "\" for table \"" + table.name() +
                  "\" does not exist");
    return indexes;
  }
  if (infer.where_clause) throw NotSupported("ON CONFLICT with a partial index predicate");
  std::vector<size_t> columns;
  for (size_t i = 0; i < infer.n_index_elems; ++i) {
    const PgQuery__IndexElem& element = *infer.index_elems[i]->index_elem;
    if (!element.name || !*element.name)
      throw NotSupported("ON CONFLICT on an expression", infer.location);
    auto column = table.find_column(element.name);
    if (!column)
      throw Error("column \"" + std::string(element.name) + "\" does not exist", infer.location);
    columns.push_back(*column);
  }
  std::sort(columns.begin(), columns.end());
  columns.erase(std::unique(columns.begin(), columns.end()), columns.end());
  for (const auto& index : table.unique_indexes()) {
    std::vector<size_t> have = index->constraint().columns;
    std::sort(have.begin(), have.end());
    if (index->unique() && have == columns) indexes.push_back(index.get());
  }
  if (indexes.empty())
    throw Error(
        "there is no unique or exclusion constraint matching the ON CONFLICT specification");
  return indexes;
}

}  // namespace

ConflictHandler::ConflictHandler(const PgQuery__OnConflictClause& clause, Table& table,
                                 const std::string& alias, StatementContext& context)
    : table_(table), context_(context), changes_(context) {
  update_ = clause.action == PG_QUERY__ON_CONFLICT_ACTION__ONCONFLICT_UPDATE;
  if (clause.infer) {
    arbiters_ = inferred_indexes(*clause.infer, table);
  } else if (update_) {
    throw Error(
        "ON CONFLICT DO UPDATE requires inference specification or constraint name\nHINT:  For "
        "example, ON CONFLICT (column_name).",
        clause.location);
  } else {
    for (const auto& index : table.unique_indexes())
      if (index->unique()) arbiters_.push_back(index.get());
  }
  if (!update_) return;
  set_columns_ = set_columns(clause.target_list, clause.n_target_list, table);
  plan::ColumnRegistry registry;
  sql::BindContext bind_context{context.catalog, registry};
  sql::BindScope scope;
  add_scope_table(scope, alias, table.columns(), registry);
  add_scope_table(scope, "excluded", table.columns(), registry);
  sql::ExpressionBinder binder(bind_context, scope, "UPDATE");
  for (size_t i = 0; i < set_columns_.size(); ++i) {
    const PgQuery__Node* value = clause.target_list[i]->res_target->val;
    plan::ExprPtr expr = binder.bind(value);
    if (value->node_case != PG_QUERY__NODE__NODE_A_CONST)
      check_assignable(expr->type, table.columns()[set_columns_[i]], sql::node_location(value));
    set_values_.push_back(std::move(expr));
  }
  if (clause.where_clause) where_ = binder.bind_condition(clause.where_clause, "WHERE");
}

std::optional<uint64_t> ConflictHandler::conflicting_row(const std::vector<Value>& row) const {
  for (const UniqueIndex* index : arbiters_) {
    std::vector<Value> key;
    for (size_t column : index->constraint().columns) key.push_back(row[column]);
    // NULLs are distinct: a key with one conflicts with nothing.
    if (std::any_of(key.begin(), key.end(), [](const Value& v) { return v.is_null(); })) continue;
    std::optional<uint64_t> holder = index->find(index->key_of(key));
    if (holder && !table_.row_deleted(*holder)) return holder;
  }
  return std::nullopt;
}

std::optional<std::vector<Value>> ConflictHandler::insert(const std::vector<Value>& row) {
  std::optional<uint64_t> existing = conflicting_row(row);
  if (!existing) {
    {
      Transaction::Append recorded(*context_.transaction, table_);
      TableAppender(table_).append_row(row);
    }
    const size_t last = table_.chunk_count() - 1;
    touched_.insert(uint64_t{last} << kChunkShift | (table_.chunk(last).size() - 1));
    inserted_.push_back(row);
    return row;
  }
  if (!update_) return std::nullopt;
  if (touched_.count(*existing))
    throw Error(
        "ON CONFLICT DO UPDATE command cannot affect row a second time\nHINT:  Ensure that no "
        "rows proposed for insertion within the same command have duplicate constrained "
        "values.");
  // The existing row's columns, then the proposed row's (EXCLUDED).
  std::vector<Value> both = RowChanges::read_row(table_, *existing);
  both.insert(both.end(), row.begin(), row.end());
  if (where_) {
    Value pass = evaluate_row_expression(*where_, both);
    if (pass.is_null() || !pass.as_bool()) return std::nullopt;
  }
  std::vector<Value> values;
  for (const plan::ExprPtr& expr : set_values_)
    values.push_back(evaluate_row_expression(*expr, both));
  // Such an update may move the row to a new row at the table's end.
  std::vector<uint64_t> moved_to;
  std::vector<std::vector<Value>> updated =
      changes_.update_rows(table_, {*existing}, set_columns_, {std::move(values)}, &moved_to);
  touched_.insert(moved_to.front());
  return std::move(updated.front());
}

}  // namespace floe
