// CALL freeze('table' [, 'sort_column']): freezes every hot chunk of the table into Data
// Blocks, like VACUUM FREEZE, optionally sorting each block on a column first (the Data
// Blocks paper's block-wise sorted freezing, Fig 11: PSMAs then narrow range scans on that
// column well). Rows keep their values; their order inside each block changes.
#include "engine/api/procedures.h"
#include "storage/error.h"

namespace floe {

namespace {

std::string text_argument(const sql::Node* arg, const char* what) {
  if (arg->node_case == PG_QUERY__NODE__NODE_A_CONST &&
      arg->a_const->val_case == PG_QUERY__A__CONST__VAL_SVAL)
    return arg->a_const->sval->sval;
  throw Error(std::string(what) + " of freeze must be a string constant", sql::node_location(arg));
}

}  // namespace

Result run_freeze(const PgQuery__FuncCall& call, StatementContext& context) {
  if (call.n_args < 1 || call.n_args > 2 || call.agg_star)
    throw Error(
        "freeze takes a table name and optionally a column to sort on, e.g. "
        "CALL freeze('lineitem', 'l_shipdate')",
        call.location);
  std::string name = text_argument(call.args[0], "the table name");
  Table* table = context.catalog.find_table(name);
  if (!table)
    throw Error("relation \"" + name + "\" does not exist", sql::node_location(call.args[0]));
  std::optional<size_t> sort_column;
  if (call.n_args == 2) {
    std::string column = text_argument(call.args[1], "the sort column");
    sort_column = table->find_column(column);
    if (!sort_column)
      throw Error("column \"" + column + "\" of relation \"" + name + "\" does not exist",
                  sql::node_location(call.args[1]));
  }
  table->freeze_all(sort_column);
  return Result::command("CALL");
}

}  // namespace floe
