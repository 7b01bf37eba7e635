// UPDATE t [[AS] alias] SET col = expr [, ...] [FROM ...] [WHERE ...]: a compiled query finds
// the rows and computes their new values (dml_target.h), each converted to its column's type
// with an assignment cast; the transaction changes the rows (engine/txn/transaction.h).
#include <algorithm>

#include "engine/api/dml_target.h"
#include "engine/api/row_changes.h"
#include "engine/sql/pg_node.h"
#include "storage/error.h"

namespace floe {

namespace {

// The SET list's columns, in order, with PostgreSQL's errors.
std::vector<uint32_t> set_columns(const PgQuery__UpdateStmt& stmt, const Table& table) {
  std::vector<uint32_t> columns;
  for (size_t i = 0; i < stmt.n_target_list; ++i) {
    const PgQuery__Node& node = *stmt.target_list[i];
    if (node.node_case != PG_QUERY__NODE__NODE_RES_TARGET) throw NotSupported("this SET item");
    const PgQuery__ResTarget& target = *node.res_target;
    if (target.n_indirection) throw NotSupported("assignment to parts of columns", target.location);
    if (target.val && target.val->node_case == PG_QUERY__NODE__NODE_MULTI_ASSIGN_REF)
      throw NotSupported("multiple-column assignment (SET (a, b) = ...)", target.location);
    if (target.val && target.val->node_case == PG_QUERY__NODE__NODE_SET_TO_DEFAULT)
      throw NotSupported("SET ... = DEFAULT", target.location);
    auto column = table.find_column(target.name);
    if (!column)
      throw Error("column \"" + std::string(target.name) + "\" of relation \"" + table.name() +
                      "\" does not exist",
                  target.location);
    if (std::find(columns.begin(), columns.end(), *column) != columns.end())
      throw Error("multiple assignments to same column \"" + std::string(target.name) + "\"",
                  target.location);
    columns.push_back(static_cast<uint32_t>(*column));
  }
  return columns;
}

}  // namespace

Result run_update(const PgQuery__UpdateStmt& stmt, StatementContext& context) {
  if (stmt.with_clause) throw NotSupported("WITH");
  if (stmt.n_returning_list) throw NotSupported("RETURNING");
  if (stmt.where_clause && stmt.where_clause->node_case == PG_QUERY__NODE__NODE_CURRENT_OF_EXPR)
    throw NotSupported("WHERE CURRENT OF");
  Table& table = target_table(*stmt.relation, context.catalog);
  const std::vector<uint32_t> columns = set_columns(stmt, table);
  PhaseTimings timings;
  auto start = std::chrono::steady_clock::now();
  DmlTargetRows rows =
      find_target_rows(table, *stmt.relation, stmt.from_clause, stmt.n_from_clause,
                       stmt.where_clause, stmt.target_list, stmt.n_target_list, context, timings);
  for (size_t i = 0; i < columns.size(); ++i) {
    // A literal (NULL, '...') has no type of its own yet: it takes the column's.
    const PgQuery__Node* value = stmt.target_list[i]->res_target->val;
    if (value->node_case == PG_QUERY__NODE__NODE_A_CONST) continue;
    check_assignable(rows.types[i], table.columns()[columns[i]], sql::node_location(value));
  }
  RowChanges(context).update_rows(table, rows.row_ids, columns, std::move(rows.values));
  return dml_result("UPDATE", rows.row_ids.size(), timings, start);
}

}  // namespace floe
