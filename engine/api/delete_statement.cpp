// DELETE FROM t [[AS] alias] [USING ...] [WHERE ...] [RETURNING ...]: a compiled query finds
// the rows (dml_target.h), RowChanges deletes them (row_changes.h).
#include "engine/api/dml_target.h"
#include "engine/api/returning.h"
#include "engine/api/row_changes.h"
#include "storage/error.h"

namespace floe {

Result run_delete(const PgQuery__DeleteStmt& stmt, StatementContext& context) {
  if (stmt.with_clause) throw NotSupported("WITH");
  if (stmt.where_clause && stmt.where_clause->node_case == PG_QUERY__NODE__NODE_CURRENT_OF_EXPR)
    throw NotSupported("WHERE CURRENT OF");
  Table& table = target_table(*stmt.relation, context.catalog);
  ReturningList returning(stmt.returning_list, stmt.n_returning_list, table,
                          target_alias(*stmt.relation), context.catalog);
  PhaseTimings timings;
  auto start = std::chrono::steady_clock::now();
  DmlTargetRows rows =
      find_target_rows(table, *stmt.relation, stmt.using_clause, stmt.n_using_clause,
                       stmt.where_clause, nullptr, 0, context, timings);
  if (!returning.empty())
    for (uint64_t row_id : rows.row_ids) returning.add(RowChanges::read_row(table, row_id));
  RowChanges(context).delete_rows(table, rows.row_ids);
  return dml_result(returning, "DELETE", rows.row_ids.size(), timings, start);
}

}  // namespace floe
