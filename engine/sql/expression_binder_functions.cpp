// Function calls: aggregates (through the AggregateBinder), EXTRACT / date_part, the
// rewritten ones (expression_binder_rewrites.cpp) and the registry's functions.
#include "engine/plan/expression_utils.h"
#include "engine/sql/expression_binder.h"
#include "engine/sql/function_resolution.h"
#include "engine/sql/type_rules.h"
#include "storage/error.h"

namespace floe::sql {

using plan::ExprKind;
using plan::ExprPtr;

bool is_aggregate_name(std::string_view name) {
  return name == "count" || name == "sum" || name == "avg" || name == "min" || name == "max";
}

ExprPtr ExpressionBinder::bind_func_call(const PgQuery__FuncCall& call) {
  std::string_view name = last_name(call.funcname, call.n_funcname);
  if (call.over) throw NotSupported("window functions", call.location);
  if (is_aggregate_name(name)) {
    if (!aggregates_)
      throw Error(std::string("aggregate functions are not allowed in ") + clause_, call.location);
    return aggregates_->bind_aggregate(call);
  }
  if (call.agg_star || call.agg_distinct)
    throw Error(std::string(name) + " is not an aggregate function", call.location);
  if (name == "extract" || name == "date_part") return bind_extract(call);
  if (name == "concat" || name == "concat_ws") return bind_concat(call, name == "concat_ws");
  std::vector<ExprPtr> args;
  for (size_t i = 0; i < call.n_args; ++i) args.push_back(bind(call.args[i]));
  if (name == "mod" && args.size() == 2)  // the % operator's semantics
    return arithmetic("%", std::move(args[0]), std::move(args[1]), call.location);
  return resolve_function(name, std::move(args), call.location);
}

ExprPtr ExpressionBinder::bind_extract(const PgQuery__FuncCall& call) {
  if (call.n_args != 2) throw Error("function date_part expects two arguments", call.location);
  ExprPtr field = bind(call.args[0]);
  if (!is_unknown_literal(*field) || field->constant.is_null())
    throw NotSupported("EXTRACT with a non-constant field", call.location);
  ExprPtr source = bind(call.args[1]);
  if (is_unknown_literal(*source)) source = coerce(std::move(source), SqlType::timestamp());
  if (!source->type.is_temporal()) {
    if (source->type.id == TypeId::kInterval)
      throw NotSupported("EXTRACT from interval", call.location);
    throw Error("function extract(unknown, " + source->type.to_string() + ") does not exist",
                call.location);
  }
  const std::string& unit = field->constant.as_string();
  auto part = parse_date_part(unit);
  if (!part)
    throw Error("unit \"" + unit + "\" not recognized for type " + source->type.to_string(),
                field->position);
  std::vector<ExprPtr> children;
  children.push_back(std::move(source));
  auto result =
      plan::make_expr(ExprKind::kExtract, SqlType::big_int(), std::move(children), call.location);
  result->date_part = *part;
  return result;
}

}  // namespace floe::sql
