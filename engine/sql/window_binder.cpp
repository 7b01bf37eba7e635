#include "engine/sql/window_binder.h"

#include <optional>

#include "engine/plan/expression_utils.h"
#include "engine/plan/logical_walk.h"
#include "engine/sql/aggregate_functions.h"
#include "engine/sql/expression_binder.h"
#include "engine/sql/type_rules.h"
#include "engine/sql/window_frame_binder.h"
#include "storage/error.h"

namespace floe::sql {

using plan::ExprPtr;

namespace {

struct WindowFunctionName {
  const char* name;
  WindowFunctionKind kind;
};

constexpr WindowFunctionName kWindowFunctions[] = {
    {"row_number", WindowFunctionKind::kRowNumber},
    {"rank", WindowFunctionKind::kRank},
    {"dense_rank", WindowFunctionKind::kDenseRank},
    {"percent_rank", WindowFunctionKind::kPercentRank},
    {"cume_dist", WindowFunctionKind::kCumeDist},
    {"ntile", WindowFunctionKind::kNtile},
    {"lag", WindowFunctionKind::kLag},
    {"lead", WindowFunctionKind::kLead},
    {"first_value", WindowFunctionKind::kFirstValue},
    {"last_value", WindowFunctionKind::kLastValue},
    {"nth_value", WindowFunctionKind::kNthValue},
};

std::optional<WindowFunctionKind> window_function_kind(std::string_view name) {
  for (const auto& function : kWindowFunctions)
    if (name == function.name) return function.kind;
  return std::nullopt;
}

std::vector<const Node*> nodes(Node* const* list, size_t count) {
  return std::vector<const Node*>(list, list + count);
}

bool same_keys(const plan::WindowOp& window, const std::vector<ExprPtr>& partitions,
               const std::vector<plan::SortKey>& order) {
  if (window.partitions.size() != partitions.size() || window.order.size() != order.size())
    return false;
  for (size_t i = 0; i < partitions.size(); ++i)
    if (!expr_equal(*window.partitions[i], *partitions[i])) return false;
  for (size_t i = 0; i < order.size(); ++i) {
    const plan::SortKey& a = window.order[i];
    const plan::SortKey& b = order[i];
    if (!expr_equal(*a.expr, *b.expr) || a.descending != b.descending ||
        a.nulls_first != b.nulls_first)
      return false;
  }
  return true;
}

}  // namespace

bool is_window_function_name(std::string_view name) {
  return window_function_kind(name).has_value();
}

WindowBinder::WindowBinder(const PgQuery__SelectStmt& stmt, BindContext& context,
                           const BindScope& scope, AggregateBinder& aggregates,
                           AggregateTyper type_aggregate)
    : stmt_(stmt),
      context_(context),
      scope_(scope),
      aggregates_(aggregates),
      type_aggregate_(std::move(type_aggregate)) {
  for (size_t i = 0; i < stmt.n_window_clause; ++i) {
    const PgQuery__WindowDef* def = stmt.window_clause[i]->window_def;
    for (size_t j = 0; j < i; ++j)
      if (std::string_view(stmt.window_clause[j]->window_def->name) == def->name)
        throw Error("window \"" + std::string(def->name) + "\" is already defined", def->location);
  }
}

const PgQuery__WindowDef* WindowBinder::named(std::string_view name, int location) const {
  for (size_t i = 0; i < stmt_.n_window_clause; ++i) {
    const PgQuery__WindowDef* def = stmt_.window_clause[i]->window_def;
    if (name == def->name) return def;
  }
  throw Error("window \"" + std::string(name) + "\" does not exist", location);
}

// PostgreSQL's rules for a window that names another (transformWindowDefinitions): it takes
// the other's PARTITION BY and ORDER BY, may add an ORDER BY, and copies no frame.
WindowBinder::Definition WindowBinder::resolve(const PgQuery__WindowDef& def) const {
  Definition result;
  std::string_view refname = def.refname ? def.refname : "";
  if (!refname.empty()) {
    const PgQuery__WindowDef* base_def = named(refname, def.location);
    Definition base = resolve(*base_def);
    std::string quoted = "\"" + std::string(refname) + "\"";
    if (def.n_partition_clause)
      throw Error("cannot override PARTITION BY clause of window " + quoted,
                  node_location(def.partition_clause[0]));
    if (def.n_order_clause && !base.order.empty())
      throw Error("cannot override ORDER BY clause of window " + quoted,
                  node_location(def.order_clause[0]));
    if (has_frame_clause(base_def->frame_options))
      throw Error("cannot copy window " + quoted + " because it has a frame clause", def.location);
    result.partitions = std::move(base.partitions);
    result.order = std::move(base.order);
  } else {
    result.partitions = nodes(def.partition_clause, def.n_partition_clause);
  }
  if (def.n_order_clause) result.order = nodes(def.order_clause, def.n_order_clause);
  result.frame = {def.frame_options, def.start_offset, def.end_offset};
  return result;
}

ExprPtr WindowBinder::bind(const PgQuery__FuncCall& call) {
  if (in_definition_)
    throw Error("window functions are not allowed in window definitions", call.location);
  if (binding_) throw Error("window function calls cannot be nested", call.location);
  binding_ = true;
  const PgQuery__WindowDef& over = *call.over;
  // OVER w names a window of the WINDOW clause; OVER (...) defines one.
  Definition definition =
      over.name && *over.name ? resolve(*named(over.name, over.location)) : resolve(over);
  plan::WindowOp::Function function{};
  SqlType type;
  bool nullable = true;
  bind_function(call, function, type, nullable);
  in_definition_ = true;
  std::vector<ExprPtr> partitions;
  for (const Node* node : definition.partitions)
    partitions.push_back(resolve_unknown(bind_argument(node)));
  std::vector<plan::SortKey> order;
  for (const Node* node : definition.order) {
    const PgQuery__SortBy& sort = *node->sort_by;
    if (sort.sortby_dir == PG_QUERY__SORT_BY_DIR__SORTBY_USING)
      throw NotSupported("ORDER BY ... USING", sort.location);
    plan::SortKey key;
    key.expr = resolve_unknown(bind_argument(sort.node));
    key.descending = sort.sortby_dir == PG_QUERY__SORT_BY_DIR__SORTBY_DESC;
    key.nulls_first =
        sort.sortby_nulls == PG_QUERY__SORT_BY_NULLS__SORTBY_NULLS_FIRST ||
        (sort.sortby_nulls != PG_QUERY__SORT_BY_NULLS__SORTBY_NULLS_LAST && key.descending);
    order.push_back(std::move(key));
  }
  BoundFrame frame = bind_window_frame(
      definition.frame, order,
      [&](const Node* node) {
        return ExpressionBinder(context_, scope_, "window frames").bind(node);
      },
      over.location);
  function.frame = frame.frame;
  function.range_key = std::move(frame.range_key);
  function.start_bound = std::move(frame.start_bound);
  function.end_bound = std::move(frame.end_bound);
  binding_ = in_definition_ = false;

  std::string name(last_name(call.funcname, call.n_funcname));
  function.id = context_.registry.add({type, nullable, name});
  plan::WindowOp* window = nullptr;
  for (auto& existing : windows_)
    if (same_keys(*existing, partitions, order)) window = existing.get();
  if (!window) {
    windows_.push_back(std::make_unique<plan::WindowOp>());
    window = windows_.back().get();
    window->partitions = std::move(partitions);
    window->order = std::move(order);
  }
  ExprPtr ref = plan::make_column(function.id, type, nullable);
  ref->position = call.location;
  window->functions.push_back(std::move(function));
  return ref;
}

ExprPtr WindowBinder::bind_argument(const Node* node) {
  return ExpressionBinder(context_, scope_, "window functions", &aggregates_).bind(node);
}

void WindowBinder::bind_function(const PgQuery__FuncCall& call, plan::WindowOp::Function& function,
                                 SqlType& type, bool& nullable) {
  std::string name(last_name(call.funcname, call.n_funcname));
  if (call.agg_within_group)
    throw Error("OVER is not supported for ordered-set aggregate " + name, call.location);
  if (call.agg_distinct)
    throw NotSupported("DISTINCT is not implemented for window functions", call.location);
  if (call.n_agg_order)
    throw NotSupported("aggregate ORDER BY is not implemented for window functions", call.location);
  if (is_aggregate_name(name)) {
    TypedAggregate typed = type_aggregate_(call);
    function.kind = WindowFunctionKind::kAggregate;
    function.aggregate = typed.function;
    if (typed.argument) function.arguments.push_back(std::move(typed.argument));
    if (typed.delimiter) function.arguments.push_back(std::move(typed.delimiter));
    type = typed.type;
    // A frame may be empty: then all but the counts are NULL.
    nullable = typed.function != plan::AggregateFunction::kCount &&
               typed.function != plan::AggregateFunction::kCountStar;
    return;
  }
  auto kind = window_function_kind(name);
  if (!kind)
    throw Error(
        "OVER specified, but " + name + " is not a window function nor an aggregate function",
        call.location);
  if (call.agg_filter)
    throw NotSupported("FILTER is not implemented for non-aggregate window functions",
                       call.location);
  if (call.agg_star) throw Error(name + "(*) must be used with count", call.location);
  function.kind = *kind;
  std::vector<ExprPtr>& args = function.arguments;
  for (size_t i = 0; i < call.n_args; ++i) args.push_back(bind_argument(call.args[i]));
  std::string signature;
  for (const ExprPtr& arg : args)
    signature += (signature.empty() ? "" : ", ") +
                 (is_unknown_literal(*arg) ? std::string("unknown") : arg->type.to_string());
  auto no_function = [&]() {
    throw Error("function " + name + "(" + signature + ") does not exist", call.location);
  };
  auto arity = [&](size_t low, size_t high) {
    if (args.size() < low || args.size() > high) no_function();
  };
  // ntile's buckets, lag's and lead's offset, nth_value's n: integer, held as bigint.
  auto integer_argument = [&](size_t i) {
    if (is_unknown_literal(*args[i])) args[i] = coerce(std::move(args[i]), SqlType::integer());
    if (args[i]->type.id != TypeId::kSmallInt && args[i]->type.id != TypeId::kInteger)
      no_function();
    args[i] = coerce(std::move(args[i]), SqlType::big_int());
  };
  nullable = true;
  switch (*kind) {
    case WindowFunctionKind::kRowNumber:
    case WindowFunctionKind::kRank:
    case WindowFunctionKind::kDenseRank:
      arity(0, 0);
      type = SqlType::big_int();
      nullable = false;
      return;
    case WindowFunctionKind::kPercentRank:
    case WindowFunctionKind::kCumeDist:
      arity(0, 0);
      type = SqlType::double_type();
      nullable = false;
      return;
    case WindowFunctionKind::kNtile:
      arity(1, 1);
      integer_argument(0);
      type = SqlType::integer();
      return;
    case WindowFunctionKind::kLag:
    case WindowFunctionKind::kLead:
      arity(1, 3);
      if (args.size() > 1) integer_argument(1);
      if (args.size() > 2) {
        // lag(anycompatible, integer, anycompatible): value and default meet in one type.
        auto common = common_type(args[0]->type, args[2]->type);
        if (!common) no_function();
        args[0] = coerce(std::move(args[0]), *common);
        args[2] = coerce(std::move(args[2]), *common);
      }
      break;
    case WindowFunctionKind::kFirstValue:
    case WindowFunctionKind::kLastValue:
      arity(1, 1);
      break;
    case WindowFunctionKind::kNthValue:
      arity(2, 2);
      integer_argument(1);
      break;
    case WindowFunctionKind::kAggregate:
      break;
  }
  args[0] = resolve_unknown(std::move(args[0]));
  if (args.size() > 2) args[2] = coerce(std::move(args[2]), args[0]->type);
  type = args[0]->type;
}

void WindowBinder::for_each_expression(const std::function<void(ExprPtr&)>& visit) {
  for (auto& window : windows_) plan::for_each_expression(*window, visit);
}

plan::LogicalOpPtr WindowBinder::apply(plan::LogicalOpPtr input) {
  for (auto& window : windows_) {
    window->children.push_back(std::move(input));
    input = std::move(window);
  }
  windows_.clear();
  return input;
}

}  // namespace floe::sql
