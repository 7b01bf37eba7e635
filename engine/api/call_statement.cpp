// CALL name(args): built-in procedures, looked up by name.
#include "engine/api/procedures.h"
#include "storage/error.h"

namespace floe {

Result run_call(const PgQuery__CallStmt& stmt, StatementContext& context) {
  const PgQuery__FuncCall& call = *stmt.funccall;
  std::string name = sql::qualified_name(call.funcname, call.n_funcname);
  if (name == "dbgen") return run_dbgen(call, context);
  if (name == "freeze") return run_freeze(call, context);
  if (name == "freeze_settled") return run_freeze_settled(call, context);
  throw Error("procedure " + name + " does not exist", call.location);
}

}  // namespace floe
