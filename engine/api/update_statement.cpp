// UPDATE t [[AS] alias] SET col = expr [, ...] [FROM ...] [WHERE ...] [RETURNING ...]: a
// compiled query finds the rows and computes their new values (dml_target.h), each converted
// to its column's type with an assignment cast; RowChanges changes the rows (row_changes.h).
#include "engine/api/dml_target.h"
#include "engine/api/returning.h"
#include "engine/api/row_changes.h"
#include "engine/sql/pg_node.h"
#include "storage/error.h"

namespace floe {

Result run_update(const PgQuery__UpdateStmt& stmt, StatementContext& context) {
  if (stmt.with_clause) throw NotSupported("WITH");
  if (stmt.where_clause && stmt.where_clause->node_case == PG_QUERY__NODE__NODE_CURRENT_OF_EXPR)
    throw NotSupported("WHERE CURRENT OF");
  Table& table = target_table(*stmt.relation, context.catalog);
  const std::vector<uint32_t> columns = set_columns(stmt.target_list, stmt.n_target_list, table);
  ReturningList returning(stmt.returning_list, stmt.n_returning_list, table,
                          target_alias(*stmt.relation), context.catalog);
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
  for (const std::vector<Value>& row :
       RowChanges(context).update_rows(table, rows.row_ids, columns, std::move(rows.values)))
    returning.add(row);
  return dml_result(returning, "UPDATE", rows.row_ids.size(), timings, start);
}

}  // namespace floe
