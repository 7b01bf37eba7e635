#include "engine/sql/aggregate_functions.h"

#include <array>
#include <optional>

#include "engine/plan/expression_utils.h"
#include "engine/sql/type_rules.h"
#include "storage/error.h"

namespace floe::sql {

using plan::AggregateFunction;
using plan::ExprKind;
using plan::ExprPtr;

namespace {

struct Named {
  std::string_view name;
  AggregateFunction function;
};

// PostgreSQL's variance and standard deviation aggregates; variance and stddev are the
// sample forms.
constexpr std::array<Named, 6> kVariances = {{
    {"variance", AggregateFunction::kVarSamp},
    {"var_samp", AggregateFunction::kVarSamp},
    {"var_pop", AggregateFunction::kVarPop},
    {"stddev", AggregateFunction::kStddevSamp},
    {"stddev_samp", AggregateFunction::kStddevSamp},
    {"stddev_pop", AggregateFunction::kStddevPop},
}};

// The ordered-set aggregates: direct arguments, then WITHIN GROUP (ORDER BY argument).
constexpr std::array<Named, 3> kOrderedSets = {{
    {"percentile_cont", AggregateFunction::kPercentileCont},
    {"percentile_disc", AggregateFunction::kPercentileDisc},
    {"mode", AggregateFunction::kMode},
}};

template <size_t N>
const Named* find(const std::array<Named, N>& table, std::string_view name) {
  for (const Named& entry : table)
    if (entry.name == name) return &entry;
  return nullptr;
}

ExprPtr only_where(ExprPtr condition, ExprPtr argument) {
  if (!condition) return argument;
  const SqlType type = argument->type;
  std::vector<ExprPtr> children;
  children.push_back(std::move(condition));
  children.push_back(std::move(argument));
  children.push_back(plan::make_constant(Value::null(type)));
  return plan::make_expr(ExprKind::kCase, type, std::move(children));
}

[[noreturn]] void no_function(std::string_view name, const std::vector<const ExprPtr*>& arguments,
                              int location) {
  std::string signature;
  for (const ExprPtr* argument : arguments)
    signature += (signature.empty() ? "" : ", ") + type_name((*argument)->type);
  throw Error("function " + std::string(name) + "(" + signature + ") does not exist", location);
}

// The value of a constant, or of casts of one (`0.5::float8`).
std::optional<Value> constant_value(const plan::Expr& expr) {
  if (expr.kind == ExprKind::kConstant) return expr.constant;
  if (expr.kind != ExprKind::kCast) return std::nullopt;
  std::optional<Value> operand = constant_value(*expr.children[0]);
  if (!operand) return std::nullopt;
  return cast_value(*operand, expr.type, CastKind::kExplicit);
}

const PgQuery__SortBy& sort_item(const Node* node) {
  const PgQuery__SortBy& sort = *node->sort_by;
  if (sort.sortby_dir == PG_QUERY__SORT_BY_DIR__SORTBY_USING)
    throw NotSupported("ORDER BY ... USING", sort.location);
  return sort;
}

bool descending(const PgQuery__SortBy& sort) {
  return sort.sortby_dir == PG_QUERY__SORT_BY_DIR__SORTBY_DESC;
}

// PostgreSQL's default: NULLS LAST for ASC, NULLS FIRST for DESC.
bool nulls_first(const PgQuery__SortBy& sort) {
  return sort.sortby_nulls == PG_QUERY__SORT_BY_NULLS__SORTBY_NULLS_FIRST ||
         (sort.sortby_nulls != PG_QUERY__SORT_BY_NULLS__SORTBY_NULLS_LAST && descending(sort));
}

// percentile_cont(f) / percentile_disc(f) WITHIN GROUP (ORDER BY x), mode() WITHIN GROUP
// (ORDER BY x).
BoundAggregate bind_ordered_set(const PgQuery__FuncCall& call, const Named& named,
                                const AggregateCallBinders& bind, ExprPtr filter) {
  if (call.agg_distinct) throw Error("cannot use DISTINCT with WITHIN GROUP", call.location);
  if (call.n_agg_order != 1)
    throw NotSupported("WITHIN GROUP with more than one ORDER BY key", call.location);
  const PgQuery__SortBy& sort = sort_item(call.agg_order[0]);
  BoundAggregate result;
  plan::AggregateOp::Aggregate& aggregate = result.call;
  aggregate.function = named.function;
  aggregate.descending = descending(sort);
  std::vector<ExprPtr> direct;
  for (size_t i = 0; i < call.n_args; ++i) direct.push_back(bind.argument(call.args[i]));
  ExprPtr argument = resolve_unknown(bind.argument(sort.node));
  std::vector<const ExprPtr*> signature;
  for (const ExprPtr& expr : direct) signature.push_back(&expr);
  signature.push_back(&argument);
  size_t expected = named.function == AggregateFunction::kMode ? 0 : 1;
  if (direct.size() != expected) no_function(named.name, signature, call.location);
  if (expected == 1) {
    ExprPtr& fraction = direct[0];
    if (is_unknown_literal(*fraction))
      fraction = coerce(std::move(fraction), SqlType::double_type());
    if (!fraction->type.is_numeric()) no_function(named.name, signature, call.location);
  }
  if (named.function == AggregateFunction::kPercentileCont) {
    // PostgreSQL interpolates in double precision (and intervals, which floe does not).
    if (!argument->type.is_numeric()) no_function(named.name, signature, call.location);
    argument = coerce(std::move(argument), SqlType::double_type());
  }
  if (expected == 1) {
    std::optional<Value> fraction = constant_value(*direct[0]);
    if (!fraction)
      throw NotSupported(std::string(named.name) + " with a fraction that is not a constant",
                         call.location);
    aggregate.parameter = plan::make_constant(cast_value(*fraction, SqlType::double_type()));
  }
  result.type = argument->type;
  aggregate.argument = only_where(std::move(filter), std::move(argument));
  return result;
}

// string_agg(value, delimiter [ORDER BY key]), string_agg(DISTINCT value, delimiter).
BoundAggregate bind_string_agg(const PgQuery__FuncCall& call, const AggregateCallBinders& bind,
                               ExprPtr filter) {
  std::vector<ExprPtr> arguments;
  for (size_t i = 0; i < call.n_args; ++i) arguments.push_back(bind.argument(call.args[i]));
  std::vector<const ExprPtr*> signature;
  for (const ExprPtr& expr : arguments) signature.push_back(&expr);
  auto text_like = [](const ExprPtr& expr) {
    return expr->type.is_string() || is_unknown_literal(*expr);
  };
  if (arguments.size() != 2 || !text_like(arguments[0]) || !text_like(arguments[1]))
    no_function("string_agg", signature, call.location);
  for (ExprPtr& argument : arguments) argument = resolve_unknown(std::move(argument));
  BoundAggregate result;
  result.type = SqlType::text();
  plan::AggregateOp::Aggregate& aggregate = result.call;
  aggregate.function = AggregateFunction::kStringAgg;
  aggregate.distinct = call.agg_distinct;
  if (call.n_agg_order > 1)
    throw NotSupported("string_agg with more than one ORDER BY key", call.location);
  if (call.n_agg_order == 1) {
    const PgQuery__SortBy& sort = sort_item(call.agg_order[0]);
    aggregate.order = resolve_unknown(bind.argument(sort.node));
    aggregate.descending = descending(sort);
    aggregate.nulls_first = nulls_first(sort);
    if (aggregate.distinct && !expr_equal(*aggregate.order, *arguments[0]))
      throw Error(
          "in an aggregate with DISTINCT, ORDER BY expressions must appear in argument list",
          node_location(sort.node));
  } else if (aggregate.distinct) {
    aggregate.order = arguments[0]->clone();  // DISTINCT values come out sorted
  }
  aggregate.parameter = std::move(arguments[1]);
  aggregate.argument = only_where(std::move(filter), std::move(arguments[0]));
  return result;
}

// The aggregates of one argument.
BoundAggregate bind_plain(const PgQuery__FuncCall& call, std::string_view name,
                          const AggregateCallBinders& bind, ExprPtr filter, bool grouped) {
  if (call.n_args != 1)
    throw Error("function " + std::string(name) + " takes exactly one argument", call.location);
  ExprPtr argument = bind.argument(call.args[0]);
  // These aggregates do not depend on the order of their input: ORDER BY inside the call is
  // checked and has no effect.
  for (size_t i = 0; i < call.n_agg_order; ++i) bind.argument(sort_item(call.agg_order[i]).node);
  BoundAggregate result;
  plan::AggregateOp::Aggregate& aggregate = result.call;
  aggregate.distinct = call.agg_distinct;
  const SqlType arg = argument->type;
  if (name == "count") {
    argument = resolve_unknown(std::move(argument));
    aggregate.function = AggregateFunction::kCount;
    result.type = SqlType::big_int();
  } else if (name == "sum" || name == "avg") {
    if (!arg.is_numeric()) no_function(name, {&argument}, call.location);
    aggregate.function = name == "sum" ? AggregateFunction::kSum : AggregateFunction::kAvg;
    result.type = SqlType::big_int();
    if (name == "avg" || arg.id == TypeId::kDouble)
      result.type = SqlType::double_type();
    else if (arg.id == TypeId::kDecimal)
      result.type = SqlType::decimal(kMaxDecimalPrecision, arg.scale);
    else if (arg.id == TypeId::kBigInt)
      result.type = SqlType::decimal(kMaxDecimalPrecision, 0);
  } else if (const Named* variance = find(kVariances, name)) {
    // PostgreSQL returns numeric for exact input; floe has no numeric of unbounded scale and
    // returns double precision, computed from exact sums (docs/sql.md).
    if (!arg.is_numeric()) no_function(name, {&argument}, call.location);
    aggregate.function = variance->function;
    result.type = SqlType::double_type();
  } else if (name == "bool_and" || name == "bool_or" || name == "every") {
    if (is_unknown_literal(*argument)) argument = coerce(std::move(argument), SqlType::boolean());
    if (argument->type.id != TypeId::kBoolean) no_function(name, {&argument}, call.location);
    aggregate.function =
        name == "bool_or" ? AggregateFunction::kBoolOr : AggregateFunction::kBoolAnd;
    aggregate.distinct = false;  // changes nothing
    result.type = SqlType::boolean();
  } else {  // min, max
    argument = resolve_unknown(std::move(argument));
    if (argument->type.id == TypeId::kBoolean || argument->type.id == TypeId::kInterval)
      no_function(name, {&argument}, call.location);
    aggregate.function = name == "min" ? AggregateFunction::kMin : AggregateFunction::kMax;
    aggregate.distinct = false;  // min/max(DISTINCT x) = min/max(x)
    result.type = argument->type;
  }
  argument = only_where(std::move(filter), std::move(argument));
  // count is never NULL; the sample variances are NULL for a single value too.
  bool sample = aggregate.function == AggregateFunction::kVarSamp ||
                aggregate.function == AggregateFunction::kStddevSamp;
  result.nullable =
      aggregate.function != AggregateFunction::kCount && (!grouped || argument->nullable || sample);
  aggregate.argument = std::move(argument);
  return result;
}

}  // namespace

bool is_aggregate_name(std::string_view name) {
  return name == "count" || name == "sum" || name == "avg" || name == "min" || name == "max" ||
         name == "bool_and" || name == "bool_or" || name == "every" || name == "string_agg" ||
         find(kVariances, name) || find(kOrderedSets, name);
}

BoundAggregate bind_aggregate_call(const PgQuery__FuncCall& call,
                                   const AggregateCallBinders& binders, bool grouped) {
  std::string name(last_name(call.funcname, call.n_funcname));
  const Named* ordered_set = find(kOrderedSets, name);
  if (static_cast<bool>(ordered_set) != call.agg_within_group) {
    // As in PostgreSQL, no function takes these arguments (WITHIN GROUP's count too).
    std::vector<ExprPtr> arguments;
    for (size_t i = 0; i < call.n_args; ++i) arguments.push_back(binders.argument(call.args[i]));
    for (size_t i = 0; call.agg_within_group && i < call.n_agg_order; ++i)
      arguments.push_back(binders.argument(sort_item(call.agg_order[i]).node));
    std::vector<const ExprPtr*> signature;
    for (const ExprPtr& argument : arguments) signature.push_back(&argument);
    no_function(name, signature, call.location);
  }
  ExprPtr filter = call.agg_filter ? binders.filter(call.agg_filter) : nullptr;
  if (call.agg_star) {
    if (name != "count") throw Error(name + "(*) must be used with count", call.location);
    BoundAggregate result;
    result.type = SqlType::big_int();
    result.nullable = false;
    result.call.function = AggregateFunction::kCountStar;
    if (filter) {
      result.call.function = AggregateFunction::kCount;
      result.call.argument =
          only_where(std::move(filter), plan::make_constant(Value::boolean(true)));
    }
    return result;
  }
  if (ordered_set) return bind_ordered_set(call, *ordered_set, binders, std::move(filter));
  if (name == "string_agg") return bind_string_agg(call, binders, std::move(filter));
  return bind_plain(call, name, binders, std::move(filter), grouped);
}

}  // namespace floe::sql
