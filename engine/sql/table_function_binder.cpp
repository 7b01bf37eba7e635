#include "engine/sql/table_function_binder.h"

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "engine/sql/expression_binder.h"
#include "engine/sql/function_resolution.h"
#include "engine/sql/type_rules.h"
#include "runtime/table_function.h"
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
SqlType resolve_series_overload(std::vector<ExprPtr>& args, int location) {
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

// PostgreSQL's errors for aggregate and window syntax on a function that is neither.
void check_not_aggregate(const PgQuery__FuncCall& call, const std::string& name) {
  std::string specified = call.agg_distinct  ? "DISTINCT"
                          : call.agg_star    ? name + "(*)"
                          : call.agg_filter  ? "FILTER"
                          : call.n_agg_order ? "ORDER BY"
                                             : "";
  if (!specified.empty())
    throw Error(specified + " specified, but " + name + " is not an aggregate function",
                call.location);
  if (call.over)
    throw Error(
        "OVER specified, but " + name + " is not a window function nor an aggregate function",
        call.location);
}

// WITH ORDINALITY (a second column name): the bigint column of the row's number, 1, 2, ...
std::optional<plan::ColumnId> add_ordinality(const std::vector<std::string>& columns,
                                             ScopeTable& table, BindContext& context) {
  if (columns.size() < 2) return std::nullopt;
  plan::ColumnId ordinality = context.registry.add({SqlType::big_int(), false, columns[1]});
  table.columns.push_back({columns[1], ordinality, SqlType::big_int(), false});
  return ordinality;
}

// generate_series: a leaf whose constant arguments let it run morsel-parallel (SeriesOp);
// LATERAL arguments make it a table function call per row (the dependent join's rule).
plan::LogicalOpPtr bind_series(std::vector<ExprPtr> args, const std::string& alias,
                               const std::vector<std::string>& columns, BindContext& context,
                               BindScope& scope, int location) {
  if (args.size() < 2 || args.size() > 3)
    throw Error("function generate_series with " + std::to_string(args.size()) +
                    " arguments does not exist",
                location);
  SqlType type = resolve_series_overload(args, location);
  if (args.size() == 2) args.push_back(coerce(plan::make_constant(Value::integer(1)), type));
  auto series = std::make_unique<plan::SeriesOp>();
  series->column = context.registry.add({type, false, columns[0]});
  series->start = std::move(args[0]);
  series->stop = std::move(args[1]);
  series->step = std::move(args[2]);
  ScopeTable table{alias, {{columns[0], series->column, type, false}}};
  series->ordinality = add_ordinality(columns, table, context);
  scope.add_table(std::move(table), location);
  return series;
}

// Any other set-returning function (runtime/table_function.h), called once per row of a
// one-row VALUES: for arguments from other FROM items, the dependent join replaces that row
// with the distinct argument values.
plan::LogicalOpPtr bind_call(const std::string& name, std::vector<ExprPtr> args,
                             const std::string& alias, const std::vector<std::string>& columns,
                             BindContext& context, BindScope& scope, int location) {
  const std::vector<TableFunction>& overloads = table_functions().overloads(name);
  std::vector<const std::vector<TypeId>*> candidates;
  for (const TableFunction& overload : overloads) candidates.push_back(&overload.parameters);
  const TableFunction& function = overloads[resolve_overload(name, candidates, args, location)];
  auto call = std::make_unique<plan::TableFunctionOp>();
  call->function = &function;
  call->arguments = std::move(args);
  call->column = context.registry.add({function.result, true, columns[0]});
  ScopeTable table{alias, {{columns[0], call->column, function.result, true}}};
  call->ordinality = add_ordinality(columns, table, context);
  auto one_row = std::make_unique<plan::ValuesOp>();
  one_row->rows.emplace_back();
  one_row->estimated_rows = 1;
  call->children.push_back(std::move(one_row));
  scope.add_table(std::move(table), location);
  return call;
}

}  // namespace

plan::LogicalOpPtr bind_table_function(const PgQuery__RangeFunction& range, BindContext& context,
                                       BindScope& scope) {
  if (range.is_rowsfrom || range.n_functions != 1) throw NotSupported("ROWS FROM");
  if (range.n_coldeflist) throw NotSupported("column definition lists");
  const PgQuery__List& item = *range.functions[0]->list;
  const Node* node = item.items[0];
  if (node->node_case != PG_QUERY__NODE__NODE_FUNC_CALL)
    throw NotSupported("this kind of function in FROM", node_location(node));
  const PgQuery__FuncCall& call = *node->func_call;
  std::string name = qualified_name(call.funcname, call.n_funcname);
  if (name.starts_with("pg_catalog.")) name = name.substr(std::string_view("pg_catalog.").size());
  const bool series = name == "generate_series";
  if (!series && table_functions().overloads(name).empty())
    throw NotSupported("the function " + name + " in FROM", call.location);
  check_not_aggregate(call, name);

  // Like PostgreSQL's functions in FROM, implicitly LATERAL: the arguments may read the FROM
  // items before it (and enclosing queries); such a call is a dependent join.
  std::vector<ExprPtr> args;
  for (size_t i = 0; i < call.n_args; ++i)
    args.push_back(ExpressionBinder(context, scope, "FROM").bind(call.args[i]));

  // The table is named by the alias, else the function; its value column by the column
  // alias, else the table alias, else the function; WITH ORDINALITY's by the second column
  // alias, else "ordinality".
  const std::string alias = range.alias ? range.alias->aliasname : name;
  std::vector<std::string> columns = {alias};
  if (range.ordinality) columns.push_back("ordinality");
  const size_t aliases = range.alias ? range.alias->n_colnames : 0;
  if (aliases > columns.size())
    throw Error("table \"" + alias + "\" has " + std::to_string(columns.size()) +
                    " columns available but " + std::to_string(aliases) + " columns specified",
                call.location);
  for (size_t i = 0; i < aliases; ++i) columns[i] = node_string(range.alias->colnames[i]);
  if (series) return bind_series(std::move(args), alias, columns, context, scope, call.location);
  return bind_call(name, std::move(args), alias, columns, context, scope, call.location);
}

}  // namespace floe::sql
