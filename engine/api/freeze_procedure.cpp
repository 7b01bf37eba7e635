// CALL freeze('table' [, 'sort_column']): freezes every hot chunk of the table into Data
// Blocks, like VACUUM FREEZE, optionally sorting each block on a column first (the Data
// Blocks paper's block-wise sorted freezing, Fig 11: PSMAs then narrow range scans on that
// column well). Rows keep their values; their order inside each block changes.
// CALL freeze_settled('table', 'column'): freezes the full hot chunks whose rows all hold a
// value in the column (a deleted row counts as settled) and have no change younger than
// every snapshot.
#include "engine/api/procedures.h"
#include "storage/error.h"

namespace floe {

namespace {

std::string text_argument(const sql::Node* arg, const char* procedure, const char* what) {
  if (arg->node_case == PG_QUERY__NODE__NODE_A_CONST &&
      arg->a_const->val_case == PG_QUERY__A__CONST__VAL_SVAL)
    return arg->a_const->sval->sval;
  throw Error(std::string(what) + " of " + procedure + " must be a string constant",
              sql::node_location(arg));
}

Table& table_argument(const sql::Node* arg, const char* procedure, StatementContext& context) {
  const std::string name = text_argument(arg, procedure, "the table name");
  Table* table = context.catalog.find_table(name);
  if (!table) throw Error("relation \"" + name + "\" does not exist", sql::node_location(arg));
  return *table;
}

size_t column_argument(const sql::Node* arg, const char* procedure, const Table& table) {
  const std::string name = text_argument(arg, procedure, "the column");
  const std::optional<size_t> column = table.find_column(name);
  if (!column)
    throw Error("column \"" + name + "\" of relation \"" + table.name() + "\" does not exist",
                sql::node_location(arg));
  return *column;
}

// Whether every row of the full chunk is deleted or has a value in `column`. Unsettled rows
// are the newest, so looking from the chunk's end finds one soonest.
bool settled(const Table& table, size_t chunk, size_t column) {
  const uint64_t first = static_cast<uint64_t>(chunk) << kChunkShift;
  for (uint64_t row = kChunkCapacity; row-- > 0;) {
    const uint64_t row_id = first | row;
    if (table.value_at(row_id, column).is_null() && !table.row_deleted(row_id)) return false;
  }
  return true;
}

size_t frozen_chunks(const Table& table) {
  size_t frozen = 0;
  for (size_t c = 0; c < table.chunk_count(); ++c) frozen += table.chunk(c).frozen();
  return frozen;
}

}  // namespace

Result run_freeze(const PgQuery__FuncCall& call, StatementContext& context) {
  if (call.n_args < 1 || call.n_args > 2 || call.agg_star)
    throw Error(
        "freeze takes a table name and optionally a column to sort on, e.g. "
        "CALL freeze('lineitem', 'l_shipdate')",
        call.location);
  Table& table = table_argument(call.args[0], "freeze", context);
  std::optional<size_t> sort_column;
  if (call.n_args == 2) sort_column = column_argument(call.args[1], "freeze", table);
  table.freeze_all(sort_column);
  return Result::command("CALL");
}

// The Data Blocks paper's §5.3 freezes TPC-C's cold order lines: a line is cold once
// delivered (ol_delivery_d set); the newest orders, which Delivery still updates, stay hot.
Result run_freeze_settled(const PgQuery__FuncCall& call, StatementContext& context) {
  if (call.n_args != 2 || call.agg_star)
    throw Error(
        "freeze_settled takes a table name and a column, e.g. "
        "CALL freeze_settled('order_line', 'ol_delivery_d')",
        call.location);
  Table& table = table_argument(call.args[0], "freeze_settled", context);
  const size_t column = column_argument(call.args[1], "freeze_settled", table);
  context.database.transactions().collect_now();
  std::vector<size_t> cold;
  for (size_t c : table.full_chunks_filled_before(std::chrono::steady_clock::time_point::max())) {
    // Rows with version chains stay hot until garbage collection took them.
    const ChunkVersions* versions = table.chunk(c).versions();
    if (versions && versions->chained_rows()) continue;
    if (settled(table, c, column)) cold.push_back(c);
  }
  const size_t before = frozen_chunks(table);
  table.freeze_chunks(cold);
  return Result::command("CALL", frozen_chunks(table) - before);
}

}  // namespace floe
