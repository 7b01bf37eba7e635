// Function calls: aggregates and window functions (through the AggregateBinder), the
// date/time forms of expression_binder_datetime.cpp, the rewritten ones
// (expression_binder_rewrites.cpp) and the registry's functions (substring included).
#include "engine/plan/expression_utils.h"
#include "engine/sql/aggregate_functions.h"
#include "engine/sql/expression_binder.h"
#include "engine/sql/function_resolution.h"
#include "engine/sql/type_rules.h"
#include "engine/sql/window_binder.h"
#include "runtime/table_function.h"
#include "storage/error.h"

namespace floe::sql {

using plan::ExprKind;
using plan::ExprPtr;

ExprPtr ExpressionBinder::bind_func_call(const PgQuery__FuncCall& call) {
  std::string_view name = last_name(call.funcname, call.n_funcname);
  if (call.over) {
    if (!aggregates_)
      throw Error(std::string("window functions are not allowed in ") + clause_, call.location);
    return aggregates_->bind_window(call);
  }
  if (is_window_function_name(name))
    throw Error("window function " + std::string(name) + " requires an OVER clause", call.location);
  if (is_aggregate_name(name)) {
    if (!aggregates_)
      throw Error(std::string("aggregate functions are not allowed in ") + clause_, call.location);
    return aggregates_->bind_aggregate(call);
  }
  if (call.agg_star || call.agg_distinct)
    throw Error(std::string(name) + " is not an aggregate function", call.location);
  // floe has set-returning functions in FROM only (table_function_binder.h).
  if (name == "generate_series" || !table_functions().overloads(name).empty())
    throw NotSupported("set-returning functions outside FROM", call.location);
  if (name == "extract" || name == "date_part") return bind_extract(call);
  if (name == "now" || name == "transaction_timestamp" || name == "statement_timestamp")
    return statement_clock(call);
  if (name == "age" && call.n_args == 1) return bind_age(call);
  if (name == "concat" || name == "concat_ws") return bind_concat(call, name == "concat_ws");
  std::vector<ExprPtr> args;
  for (size_t i = 0; i < call.n_args; ++i) args.push_back(bind(call.args[i]));
  if (name == "mod" && args.size() == 2)  // the % operator's semantics
    return arithmetic("%", std::move(args[0]), std::move(args[1]), call.location);
  return resolve_function(name, std::move(args), call.location);
}

}  // namespace floe::sql
