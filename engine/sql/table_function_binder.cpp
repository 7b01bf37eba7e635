#include "engine/sql/table_function_binder.h"

#include <string>

#include "engine/sql/expression_binder.h"
#include "engine/sql/type_rules.h"
#include "storage/error.h"

namespace floe::sql {

namespace {

using plan::ExprPtr;

[[noreturn]] void no_function(const std::vector<ExprPtr>& args, int location) {
  std::string signature = "generate_series(";
  for (size_t i = 0; i < args.size(); ++i) signature += (i ? ", " : "") + type_name(args[i]->type);
  throw Error("function " + signature + ") does not exist", location);
}

bool is_temporal(const SqlType& type) {
  return type.id == TypeId::kTimestamp || type.id == TypeId::kDate;
}

// PostgreSQL's overloads: (integer, integer [, integer]), the same over bigint and numeric,
// and (timestamp, timestamp, interval). The arguments get the overload's types.
SqlType resolve_overload(std::vector<ExprPtr>& args, int location) {
  bool calendar =
      args.size() == 3 && (args[2]->type.id == TypeId::kInterval ||
                           (is_unknown_literal(*args[2]) &&
                            (is_temporal(args[0]->type) || is_temporal(args[1]->type))));
  if (calendar) {
    for (size_t i = 0; i < 2; ++i)
      if (!is_unknown_literal(*args[i]) && !is_temporal(args[i]->type)) no_function(args, location);
    if (!is_unknown_literal(*args[2]) && args[2]->type.id != TypeId::kInterval)
      no_function(args, location);
    args[0] = coerce(std::move(args[0]), SqlType::timestamp());
    args[1] = coerce(std::move(args[1]), SqlType::timestamp());
    args[2] = coerce(std::move(args[2]), SqlType::interval());
    return SqlType::timestamp();
  }
  SqlType type = SqlType::unknown();
  for (const ExprPtr& arg : args) {
    auto common = common_type(type, arg->type);
    if (!common) no_function(args, location);
    type = *common;
  }
  switch (type.id) {
    case TypeId::kUnknown:
      throw Error("function generate_series(unknown, unknown) is not unique", location);
    case TypeId::kSmallInt:
      type = SqlType::integer();
      break;
    case TypeId::kInteger:
    case TypeId::kBigInt:
    case TypeId::kDecimal:
      break;
    default:
      no_function(args, location);
  }
  for (ExprPtr& arg : args) arg = coerce(std::move(arg), type);
  return type;
}

}  // namespace

plan::LogicalOpPtr bind_table_function(const PgQuery__RangeFunction& range, BindContext& context,
                                       BindScope& scope) {
  if (range.ordinality) throw NotSupported("WITH ORDINALITY");
  if (range.is_rowsfrom || range.n_functions != 1) throw NotSupported("ROWS FROM");
  if (range.n_coldeflist) throw NotSupported("column definition lists");
  const PgQuery__List& item = *range.functions[0]->list;
  const Node* node = item.items[0];
  if (node->node_case != PG_QUERY__NODE__NODE_FUNC_CALL)
    throw NotSupported("this kind of function in FROM", node_location(node));
  const PgQuery__FuncCall& call = *node->func_call;
  std::string name = qualified_name(call.funcname, call.n_funcname);
  if (name != "generate_series" && name != "pg_catalog.generate_series")
    throw NotSupported("the function " + name + " in FROM", call.location);
  if (call.n_args < 2 || call.n_args > 3 || call.agg_star || call.agg_distinct || call.over)
    throw Error("function generate_series with " + std::to_string(call.n_args) +
                    " arguments does not exist",
                call.location);

  // Like PostgreSQL's functions in FROM, implicitly LATERAL: the arguments may read the FROM
  // items before it (and enclosing queries); such a series is a dependent join.
  std::vector<ExprPtr> args;
  for (size_t i = 0; i < call.n_args; ++i)
    args.push_back(ExpressionBinder(context, scope, "FROM").bind(call.args[i]));
  SqlType type = resolve_overload(args, call.location);
  if (args.size() == 2) args.push_back(coerce(plan::make_constant(Value::integer(1)), type));

  std::string alias = range.alias ? range.alias->aliasname : "generate_series";
  std::string column = range.alias && range.alias->n_colnames
                           ? std::string(node_string(range.alias->colnames[0]))
                           : alias;
  if (range.alias && range.alias->n_colnames > 1)
    throw Error("table \"" + alias + "\" has 1 columns available but " +
                    std::to_string(range.alias->n_colnames) + " columns specified",
                call.location);
  auto series = std::make_unique<plan::SeriesOp>();
  series->column = context.registry.add({type, false, column});
  series->start = std::move(args[0]);
  series->stop = std::move(args[1]);
  series->step = std::move(args[2]);
  scope.add_table({alias, {{column, series->column, type, false}}}, call.location);
  return series;
}

}  // namespace floe::sql
