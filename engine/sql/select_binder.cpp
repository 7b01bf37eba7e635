#include "engine/sql/select_binder.h"

#include <algorithm>
#include <optional>

#include "engine/plan/expression_utils.h"
#include "engine/plan/logical_walk.h"
#include "engine/sql/aggregate_functions.h"
#include "engine/sql/distinct_on.h"
#include "engine/sql/expression_binder.h"
#include "engine/sql/from_binder.h"
#include "engine/sql/grouping_sets.h"
#include "engine/sql/node_equality.h"
#include "engine/sql/set_operation_binder.h"
#include "engine/sql/type_rules.h"
#include "engine/sql/window_binder.h"
#include "storage/error.h"
#include "storage/stack_depth.h"

namespace floe::sql {

using plan::ExprKind;
using plan::ExprPtr;

WithQueries::WithQueries(const PgQuery__WithClause* with, BindContext& context)
    : context_(context), outer_count_(context.ctes.size()) {
  if (!with) return;
  for (size_t i = 0; i < with->n_ctes; ++i) {
    const PgQuery__CommonTableExpr* cte = with->ctes[i]->common_table_expr;
    if (with->recursive) context.recursive_ctes.insert(cte);
    for (size_t j = outer_count_; j < context.ctes.size(); ++j)
      if (std::string_view(context.ctes[j]->ctename) == cte->ctename)
        throw Error(
            "WITH query name \"" + std::string(cte->ctename) + "\" specified more than once",
            cte->location);
    context.ctes.push_back(cte);
  }
}

WithQueries::~WithQueries() { context_.ctes.resize(outer_count_); }

plan::SortKey sort_direction(const PgQuery__SortBy& sort) {
  if (sort.sortby_dir == PG_QUERY__SORT_BY_DIR__SORTBY_USING)
    throw NotSupported("ORDER BY ... USING", sort.location);
  plan::SortKey key;
  key.descending = sort.sortby_dir == PG_QUERY__SORT_BY_DIR__SORTBY_DESC;
  key.nulls_first =
      sort.sortby_nulls == PG_QUERY__SORT_BY_NULLS__SORTBY_NULLS_FIRST ||
      (sort.sortby_nulls != PG_QUERY__SORT_BY_NULLS__SORTBY_NULLS_LAST && key.descending);
  return key;
}

namespace {

std::optional<uint64_t> bind_limit_value(const Node* node, const char* what, BindContext& context) {
  if (!node) return std::nullopt;
  BindScope empty;
  ExprPtr expr = ExpressionBinder(context, empty, what).bind(node);
  if (expr->kind != ExprKind::kConstant || !(expr->type.is_integer() || is_unknown_literal(*expr)))
    throw NotSupported(std::string(what) + " with a non-constant or non-integer value",
                       node_location(node));
  Value value = cast_value(expr->constant, SqlType::big_int());
  if (value.is_null()) return std::nullopt;
  if (value.as_int64() < 0)
    throw Error(std::string(what) + " must not be negative", node_location(node));
  return static_cast<uint64_t>(value.as_int64());
}

}  // namespace

plan::LogicalOpPtr add_sort_and_limit(plan::LogicalOpPtr root, std::vector<plan::SortKey> keys,
                                      const PgQuery__SelectStmt& stmt, BindContext& context) {
  if (stmt.limit_option == PG_QUERY__LIMIT_OPTION__LIMIT_OPTION_WITH_TIES)
    throw NotSupported("FETCH ... WITH TIES");
  std::optional<uint64_t> limit = bind_limit_value(stmt.limit_count, "LIMIT", context);
  uint64_t offset = bind_limit_value(stmt.limit_offset, "OFFSET", context).value_or(0);
  if (!keys.empty()) {
    auto sort = std::make_unique<plan::SortOp>();
    sort->keys = std::move(keys);
    sort->limit = limit;
    sort->offset = offset;
    sort->children.push_back(std::move(root));
    return sort;
  }
  if (!limit && !offset) return root;
  auto op = std::make_unique<plan::LimitOp>();
  op->limit = limit;
  op->offset = offset;
  op->children.push_back(std::move(root));
  return op;
}

namespace {

struct Target {
  ExprPtr expr;
  std::string name;
};

struct SortItem {
  std::optional<size_t> output;  // ORDER BY ordinal or output name
  ExprPtr expr;                  // otherwise
  bool descending = false;
  bool nulls_first = false;
};

}  // namespace

std::optional<std::string> figure_column_name(const Node* node) {
  switch (node->node_case) {
    case PG_QUERY__NODE__NODE_COLUMN_REF: {
      const PgQuery__ColumnRef& ref = *node->column_ref;
      return std::string(node_string(ref.fields[ref.n_fields - 1]));
    }
    case PG_QUERY__NODE__NODE_FUNC_CALL:
      return std::string(last_name(node->func_call->funcname, node->func_call->n_funcname));
    case PG_QUERY__NODE__NODE_TYPE_CAST: {
      if (auto name = figure_column_name(node->type_cast->arg)) return name;
      const PgQuery__TypeName& type = *node->type_cast->type_name;
      return std::string(last_name(type.names, type.n_names));
    }
    case PG_QUERY__NODE__NODE_CASE_EXPR:
      return "case";
    case PG_QUERY__NODE__NODE_COALESCE_EXPR:
      return "coalesce";
    case PG_QUERY__NODE__NODE_GROUPING_FUNC:
      return "grouping";
    case PG_QUERY__NODE__NODE_MIN_MAX_EXPR:
      return node->min_max_expr->op == PG_QUERY__MIN_MAX_OP__IS_GREATEST ? "greatest" : "least";
    case PG_QUERY__NODE__NODE_A_EXPR:
      if (node->a_expr->kind == PG_QUERY__A__EXPR__KIND__AEXPR_NULLIF) return "nullif";
      return std::nullopt;
    case PG_QUERY__NODE__NODE_SUB_LINK: {
      const PgQuery__SelectStmt& sub = *node->sub_link->subselect->select_stmt;
      if (sub.n_target_list == 0) return std::nullopt;
      const PgQuery__ResTarget& target = *sub.target_list[0]->res_target;
      if (target.name && *target.name) return std::string(target.name);
      return figure_column_name(target.val);
    }
    default:
      return std::nullopt;
  }
}

namespace {

class SelectBinder : public AggregateBinder {
 public:
  SelectBinder(const PgQuery__SelectStmt& stmt, BindContext& context, const BindScope* outer,
               bool keep_untyped_outputs)
      : stmt_(stmt),
        context_(context),
        scope_(outer),
        windows_(stmt, context, scope_, *this,
                 [this](const PgQuery__FuncCall& call) { return type_window_aggregate(call); }),
        keep_untyped_outputs_(keep_untyped_outputs && !stmt.n_distinct_clause &&
                              !stmt.n_sort_clause) {}

  BoundQuery bind();
  ExprPtr bind_aggregate(const PgQuery__FuncCall& call) override;
  ExprPtr bind_window(const PgQuery__FuncCall& call) override;
  ExprPtr bind_grouping(const PgQuery__GroupingFunc& call) override;
  ExprPtr bound_group_subquery(const PgQuery__SubLink& link) override;

 private:
  void check_supported() const;
  // The aggregate a call names, with its argument and result type; `window`: for a window
  // function, whose argument may hold aggregates of the query's groups.
  TypedAggregate type_window_aggregate(const PgQuery__FuncCall& call);
  void bind_group_by();
  ExprPtr bind_group_item(const Node* node);
  void bind_targets();
  SortItem bind_sort_item(const Node* node, const char* clause);
  void bind_order_by();
  // SELECT DISTINCT, not DISTINCT ON (...): its list holds one empty node.
  bool plain_distinct() const {
    return stmt_.n_distinct_clause &&
           stmt_.distinct_clause[0]->node_case == PG_QUERY__NODE__NODE__NOT_SET;
  }
  void replace_groups(ExprPtr& expr) const;
  size_t add_group(ExprPtr expr);
  // GROUP BY () groups too: one row.
  bool grouped() const {
    return stmt_.n_group_clause || !aggregates_.empty() || stmt_.having_clause;
  }
  void apply_grouping();
  void expand_to_grouping_sets(plan::AggregateOp& aggregate);
  std::vector<plan::ColumnId> add_map();
  void add_distinct(std::vector<plan::ColumnId>& outputs);
  void add_distinct_on(const std::vector<plan::ColumnId>& outputs);
  // A sort item as an expression over the select list's MapOp.
  ExprPtr item_expr(const SortItem& item, const std::vector<plan::ColumnId>& outputs) const;
  void add_sort_and_limit(const std::vector<plan::ColumnId>& outputs);

  const PgQuery__SelectStmt& stmt_;
  BindContext& context_;
  BindScope scope_;
  plan::LogicalOpPtr root_;
  std::vector<ExprPtr> group_exprs_;
  std::vector<plan::AggregateOp::Group> groups_;
  // GROUP BY items that are subqueries, with their bound expressions (bound_group_subquery).
  std::vector<std::pair<const PgQuery__SubLink*, ExprPtr>> group_subqueries_;
  std::vector<plan::AggregateOp::Aggregate> aggregates_;
  // GROUPING SETS / ROLLUP / CUBE with more than one set (indexes into groups_); the set of
  // a row is a number in set_tag_ (input side) and set_group_ (the aggregate's output).
  std::vector<GroupingSet> grouping_sets_;
  plan::ColumnId set_tag_ = 0;
  plan::ColumnId set_group_ = 0;
  bool in_aggregate_argument_ = false;
  std::vector<Target> targets_;
  ExprPtr having_;
  std::vector<SortItem> sort_items_;
  std::vector<SortItem> distinct_on_;  // DISTINCT ON (...) items
  std::vector<int> distinct_on_locations_;
  bool in_having_ = false;
  WindowBinder windows_;
  // BoundQuery::untyped_outputs: untyped literal items stay so (a set operation types them).
  bool keep_untyped_outputs_;
  std::vector<ExprPtr> untyped_outputs_;
};

void SelectBinder::check_supported() const {
  if (stmt_.into_clause) throw NotSupported("SELECT INTO");
  if (stmt_.n_locking_clause) throw NotSupported("FOR UPDATE / FOR SHARE");
  if (stmt_.group_distinct) throw NotSupported("GROUP BY DISTINCT");
}

BoundQuery SelectBinder::bind() {
  check_stack_depth();
  check_supported();
  WithQueries with(stmt_.with_clause, context_);
  root_ = bind_from_clause(stmt_.from_clause, stmt_.n_from_clause, context_, scope_);
  if (stmt_.where_clause) {
    auto filter = std::make_unique<plan::FilterOp>();
    filter->predicate =
        ExpressionBinder(context_, scope_, "WHERE").bind_condition(stmt_.where_clause, "WHERE");
    filter->children.push_back(std::move(root_));
    root_ = std::move(filter);
  }
  bind_group_by();
  bind_targets();
  if (stmt_.having_clause) {
    in_having_ = true;
    having_ = ExpressionBinder(context_, scope_, "HAVING", this)
                  .bind_condition(stmt_.having_clause, "HAVING");
    in_having_ = false;
  }
  bind_order_by();
  if (grouped()) apply_grouping();
  if (!windows_.empty()) root_ = windows_.apply(std::move(root_));
  std::vector<plan::ColumnId> outputs = add_map();
  if (plain_distinct()) add_distinct(outputs);
  if (!distinct_on_.empty()) add_distinct_on(outputs);
  add_sort_and_limit(outputs);
  BoundQuery result;
  result.root = std::move(root_);
  for (size_t i = 0; i < outputs.size(); ++i)
    result.outputs.push_back({outputs[i], targets_[i].name});
  if (keep_untyped_outputs_) result.untyped_outputs = std::move(untyped_outputs_);
  return result;
}

size_t SelectBinder::add_group(ExprPtr expr) {
  std::string name =
      expr->kind == ExprKind::kColumn ? context_.registry[expr->column].name : "?column?";
  plan::ColumnId id = context_.registry.add({expr->type, expr->nullable, name});
  groups_.push_back({id, expr->clone()});
  group_exprs_.push_back(std::move(expr));
  return groups_.size() - 1;
}

void SelectBinder::bind_group_by() {
  if (!has_grouping_sets(stmt_.group_clause, stmt_.n_group_clause)) {
    for (size_t i = 0; i < stmt_.n_group_clause; ++i)
      add_group(bind_group_item(stmt_.group_clause[i]));
    return;
  }
  grouping_sets_ =
      expand_grouping_sets(stmt_.group_clause, stmt_.n_group_clause, [&](const Node* node) {
        ExprPtr expr = bind_group_item(node);
        for (size_t i = 0; i < group_exprs_.size(); ++i)
          if (expr_equal(*group_exprs_[i], *expr)) return i;
        return add_group(std::move(expr));
      });
  if (grouping_sets_.size() == 1) {  // one set: a plain GROUP BY
    grouping_sets_.clear();
    return;
  }
  // A grouping expression left out of a set is NULL in that set's rows.
  for (size_t i = 0; i < groups_.size(); ++i) context_.registry[groups_[i].id].nullable = true;
  set_tag_ = context_.registry.add({SqlType::integer(), false, "grouping_set"});
  set_group_ = context_.registry.add({SqlType::integer(), false, "grouping_set"});
}

ExprPtr SelectBinder::bind_group_item(const Node* node) {
  ExpressionBinder binder(context_, scope_, "GROUP BY");
  auto bind = [&](const Node* item) {
    ExprPtr expr = resolve_unknown(binder.bind(item));
    if (item->node_case == PG_QUERY__NODE__NODE_SUB_LINK)
      group_subqueries_.emplace_back(item->sub_link, expr->clone());
    return expr;
  };
  auto target_value = [&](size_t index) -> const Node* {
    const Node* target = stmt_.target_list[index];
    const Node* value = target->res_target->val;
    if (value->node_case == PG_QUERY__NODE__NODE_COLUMN_REF &&
        value->column_ref->fields[value->column_ref->n_fields - 1]->node_case ==
            PG_QUERY__NODE__NODE_A_STAR)
      throw NotSupported("GROUP BY a * item", node_location(node));
    return value;
  };
  if (node->node_case == PG_QUERY__NODE__NODE_A_CONST &&
      node->a_const->val_case == PG_QUERY__A__CONST__VAL_IVAL) {
    int64_t ordinal = node->a_const->ival->ival;
    if (ordinal < 1 || static_cast<size_t>(ordinal) > stmt_.n_target_list)
      throw Error("GROUP BY position " + std::to_string(ordinal) + " is not in select list",
                  node_location(node));
    return bind(target_value(ordinal - 1));
  }
  // A bare name that is no input column may name an output column (PostgreSQL rule).
  if (node->node_case == PG_QUERY__NODE__NODE_COLUMN_REF && node->column_ref->n_fields == 1) {
    std::string_view name = node_string(node->column_ref->fields[0]);
    bool is_input = false;
    for (const ScopeTable& table : scope_.tables())
      for (const ScopeColumn& column : table.columns) is_input |= column.name == name;
    if (!is_input) {
      for (size_t i = 0; i < stmt_.n_target_list; ++i) {
        const char* alias = stmt_.target_list[i]->res_target->name;
        if (alias && name == alias) return bind(target_value(i));
      }
    }
  }
  return bind(node);
}

ExprPtr SelectBinder::bound_group_subquery(const PgQuery__SubLink& link) {
  // An aggregate's argument is computed from the input rows, not from the groups.
  if (in_aggregate_argument_) return nullptr;
  for (const auto& [item, expr] : group_subqueries_)
    if (item == &link || same_parse_tree(&item->base, &link.base)) return expr->clone();
  return nullptr;
}

void SelectBinder::bind_targets() {
  ExpressionBinder binder(context_, scope_, "SELECT", this);
  for (size_t i = 0; i < stmt_.n_target_list; ++i) {
    const PgQuery__ResTarget& target = *stmt_.target_list[i]->res_target;
    const Node* value = target.val;
    if (value->node_case == PG_QUERY__NODE__NODE_COLUMN_REF) {
      const PgQuery__ColumnRef& ref = *value->column_ref;
      if (ref.fields[ref.n_fields - 1]->node_case == PG_QUERY__NODE__NODE_A_STAR) {
        std::string_view table =
            ref.n_fields == 2 ? node_string(ref.fields[0]) : std::string_view();
        for (const ScopeColumn* column : scope_.star(table, ref.location)) {
          ExprPtr expr = plan::make_column(column->id, column->type, column->nullable);
          expr->position = ref.location;
          targets_.push_back({std::move(expr), column->name});
        }
        continue;
      }
    }
    std::string name =
        target.name && *target.name ? target.name : figure_column_name(value).value_or("?column?");
    targets_.push_back({binder.bind(value), std::move(name)});
  }
}

// An ORDER BY or DISTINCT ON item: an output column by ordinal or name, else an expression.
SortItem SelectBinder::bind_sort_item(const Node* node, const char* clause) {
  ExpressionBinder binder(context_, scope_, clause, this);
  SortItem item;
  if (node->node_case == PG_QUERY__NODE__NODE_A_CONST &&
      node->a_const->val_case == PG_QUERY__A__CONST__VAL_IVAL) {
    int64_t ordinal = node->a_const->ival->ival;
    if (ordinal < 1 || static_cast<size_t>(ordinal) > targets_.size())
      throw Error(std::string(clause) + " position " + std::to_string(ordinal) +
                      " is not in select list",
                  node_location(node));
    item.output = static_cast<size_t>(ordinal - 1);
  } else if (node->node_case == PG_QUERY__NODE__NODE_COLUMN_REF &&
             node->column_ref->n_fields == 1 &&
             node->column_ref->fields[0]->node_case == PG_QUERY__NODE__NODE_STRING) {
    std::string_view name = node_string(node->column_ref->fields[0]);
    for (size_t t = 0; t < targets_.size(); ++t) {
      if (targets_[t].name != name) continue;
      if (item.output && !expr_equal(*targets_[*item.output].expr, *targets_[t].expr))
        throw Error(std::string(clause) + " \"" + std::string(name) + "\" is ambiguous",
                    node_location(node));
      item.output = t;
    }
  }
  if (!item.output) item.expr = resolve_unknown(binder.bind(node));
  return item;
}

void SelectBinder::bind_order_by() {
  for (size_t i = 0; i < stmt_.n_sort_clause; ++i) {
    const PgQuery__SortBy& sort = *stmt_.sort_clause[i]->sort_by;
    plan::SortKey direction = sort_direction(sort);
    SortItem item = bind_sort_item(sort.node, "ORDER BY");
    item.descending = direction.descending;
    item.nulls_first = direction.nulls_first;
    sort_items_.push_back(std::move(item));
  }
  if (plain_distinct()) return;
  for (size_t i = 0; i < stmt_.n_distinct_clause; ++i) {
    distinct_on_.push_back(bind_sort_item(stmt_.distinct_clause[i], "DISTINCT ON"));
    distinct_on_locations_.push_back(node_location(stmt_.distinct_clause[i]));
  }
}

ExprPtr SelectBinder::bind_window(const PgQuery__FuncCall& call) {
  if (in_aggregate_argument_)
    throw Error("aggregate function calls cannot contain window function calls", call.location);
  if (in_having_) throw Error("window functions are not allowed in HAVING", call.location);
  return windows_.bind(call);
}

ExprPtr SelectBinder::bind_aggregate(const PgQuery__FuncCall& call) {
  if (in_aggregate_argument_)
    throw Error("aggregate function calls cannot be nested", call.location);
  AggregateCallBinders binders;
  binders.argument = [&](const Node* node) {
    in_aggregate_argument_ = true;
    ExprPtr expr = ExpressionBinder(context_, scope_, "aggregate", this).bind(node);
    in_aggregate_argument_ = false;
    return expr;
  };
  binders.filter = [&](const Node* node) {
    // Without an AggregateBinder: "aggregate functions are not allowed in FILTER".
    return ExpressionBinder(context_, scope_, "FILTER").bind_condition(node, "FILTER");
  };
  // Every group has input rows, unless there are none or an empty grouping set gives one.
  bool rows_in_every_group =
      !groups_.empty() && std::none_of(grouping_sets_.begin(), grouping_sets_.end(),
                                       [](const GroupingSet& set) { return set.empty(); });
  BoundAggregate bound = bind_aggregate_call(call, binders, rows_in_every_group);
  for (const auto& existing : aggregates_) {
    if (existing.same_as(bound.call)) {
      const plan::ColumnInfo& info = context_.registry[existing.id];
      ExprPtr ref = plan::make_column(existing.id, info.type, info.nullable);
      ref->position = call.location;
      return ref;
    }
  }
  std::string name(last_name(call.funcname, call.n_funcname));
  bound.call.id = context_.registry.add({bound.type, bound.nullable, name});
  ExprPtr ref = plan::make_column(bound.call.id, bound.type, bound.nullable);
  ref->position = call.location;
  aggregates_.push_back(std::move(bound.call));
  return ref;
}

// A window aggregate (OVER): typed as the same aggregate is under GROUP BY (one semantics),
// among the aggregates the window evaluator combines. Its argument may hold aggregates of the
// query level (sum(sum(x)) OVER ()); FILTER becomes part of the argument, as under GROUP BY.
TypedAggregate SelectBinder::type_window_aggregate(const PgQuery__FuncCall& call) {
  AggregateCallBinders binders;
  binders.argument = [&](const Node* node) {
    return ExpressionBinder(context_, scope_, "aggregate", this).bind(node);
  };
  binders.filter = [&](const Node* node) {
    // Without an AggregateBinder: "aggregate functions are not allowed in FILTER".
    return ExpressionBinder(context_, scope_, "FILTER").bind_condition(node, "FILTER");
  };
  BoundAggregate bound = bind_aggregate_call(call, binders, false);
  return {bound.call.function, std::move(bound.call.argument), std::move(bound.call.parameter),
          bound.type};
}

void SelectBinder::replace_groups(ExprPtr& expr) const {
  check_stack_depth();
  for (size_t i = 0; i < group_exprs_.size(); ++i) {
    if (expr_equal(*expr, *group_exprs_[i])) {
      int position = expr->position;
      const plan::ColumnInfo& info = context_.registry[groups_[i].id];
      expr = plan::make_column(groups_[i].id, info.type, info.nullable);
      expr->position = position;
      return;
    }
  }
  if (plan::is_subquery(expr->kind)) {
    // A correlated reference to a grouped column reads the group's value.
    plan::LogicalOpPtr subquery = plan::clone_tree(*expr->subquery);
    plan::for_each_expression_in_tree(*subquery, [&](ExprPtr& root) {
      plan::transform_expr(root, [&](ExprPtr& node) {
        if (node->kind != ExprKind::kColumn) return;
        for (size_t i = 0; i < group_exprs_.size(); ++i)
          if (group_exprs_[i]->kind == ExprKind::kColumn && group_exprs_[i]->column == node->column)
            node = plan::make_column(groups_[i].id, node->type, node->nullable);
      });
    });
    expr->subquery = std::shared_ptr<plan::LogicalOp>(std::move(subquery));
  }
  if (expr->kind == ExprKind::kColumn && scope_.contains(expr->column))
    throw Error("column \"" + context_.registry[expr->column].name +
                    "\" must appear in the GROUP BY clause or be used in an aggregate function",
                expr->position);
  for (ExprPtr& child : expr->children) replace_groups(child);
}

void SelectBinder::apply_grouping() {
  for (Target& target : targets_) replace_groups(target.expr);
  if (having_) replace_groups(having_);
  for (SortItem& item : sort_items_)
    if (item.expr) replace_groups(item.expr);
  for (SortItem& item : distinct_on_)
    if (item.expr) replace_groups(item.expr);
  windows_.for_each_expression([this](ExprPtr& expr) { replace_groups(expr); });
  auto aggregate = std::make_unique<plan::AggregateOp>();
  aggregate->groups = std::move(groups_);
  aggregate->aggregates = std::move(aggregates_);
  aggregate->children.push_back(std::move(root_));
  if (!grouping_sets_.empty()) expand_to_grouping_sets(*aggregate);
  root_ = std::move(aggregate);
  if (having_) {
    auto filter = std::make_unique<plan::FilterOp>();
    filter->predicate = std::move(having_);
    filter->children.push_back(std::move(root_));
    root_ = std::move(filter);
  }
}

// Grouping sets by tagging (like the DISTINCT-aggregate rewrite): every input row meets
// every set's number (a cross join with a VALUES list), and the aggregation groups by the
// number and by the grouping expressions, each NULL where its set leaves it out.
void SelectBinder::expand_to_grouping_sets(plan::AggregateOp& aggregate) {
  auto tags = std::make_unique<plan::ValuesOp>();
  tags->columns.push_back(set_tag_);
  for (size_t s = 0; s < grouping_sets_.size(); ++s) {
    std::vector<ExprPtr> row;
    row.push_back(plan::make_constant(Value::integer(static_cast<int32_t>(s))));
    tags->rows.push_back(std::move(row));
  }
  auto cross = std::make_unique<plan::JoinOp>();
  cross->children.push_back(std::move(aggregate.children[0]));
  cross->children.push_back(std::move(tags));
  aggregate.children[0] = std::move(cross);
  ExprPtr tag = plan::make_column(set_tag_, SqlType::integer(), false);
  for (size_t i = 0; i < aggregate.groups.size(); ++i) {
    std::vector<ExprPtr> in_sets;
    in_sets.push_back(tag->clone());
    for (size_t s = 0; s < grouping_sets_.size(); ++s) {
      const GroupingSet& set = grouping_sets_[s];
      if (std::find(set.begin(), set.end(), i) != set.end())
        in_sets.push_back(plan::make_constant(Value::integer(static_cast<int32_t>(s))));
    }
    if (in_sets.size() == grouping_sets_.size() + 1) continue;  // in every set
    ExprPtr& expr = aggregate.groups[i].expr;
    const SqlType type = expr->type;
    std::vector<ExprPtr> children;
    children.push_back(in_sets.size() == 1 ? plan::make_constant(Value::boolean(false))
                                           : plan::make_expr(ExprKind::kInList, SqlType::boolean(),
                                                             std::move(in_sets)));
    children.push_back(std::move(expr));
    children.push_back(plan::make_constant(Value::null(type)));
    expr = plan::make_expr(ExprKind::kCase, type, std::move(children));
  }
  aggregate.groups.push_back({set_group_, std::move(tag)});
  // An empty set gives its row even for empty input, like an aggregation without GROUP BY.
  for (size_t s = 0; s < grouping_sets_.size(); ++s) {
    if (!grouping_sets_[s].empty()) continue;
    std::vector<Value> keys;
    for (size_t i = 0; i + 1 < aggregate.groups.size(); ++i)
      keys.push_back(Value::null(aggregate.groups[i].expr->type));
    keys.push_back(Value::integer(static_cast<int32_t>(s)));
    aggregate.initial_groups.push_back(std::move(keys));
  }
}

ExprPtr SelectBinder::bind_grouping(const PgQuery__GroupingFunc& call) {
  if (call.n_args >= 32) throw Error("GROUPING must have fewer than 32 arguments", call.location);
  std::vector<size_t> arguments;
  for (size_t a = 0; a < call.n_args; ++a) {
    ExprPtr expr =
        resolve_unknown(ExpressionBinder(context_, scope_, "GROUPING").bind(call.args[a]));
    size_t i = 0;
    while (i < group_exprs_.size() && !expr_equal(*group_exprs_[i], *expr)) ++i;
    if (i == group_exprs_.size())
      throw Error(
          "arguments to GROUPING must be grouping expressions of the associated query level",
          node_location(call.args[a]));
    arguments.push_back(i);
  }
  // One bit per argument, the last one lowest: 1 when the row's set leaves it out.
  auto bits = [&](const GroupingSet& set) {
    int32_t value = 0;
    for (size_t i : arguments)
      value = value << 1 | (std::find(set.begin(), set.end(), i) == set.end() ? 1 : 0);
    return plan::make_constant(Value::integer(value));
  };
  if (grouping_sets_.empty()) return bits(arguments);  // plain GROUP BY: all are grouped
  std::vector<ExprPtr> children;
  for (size_t s = 0; s + 1 < grouping_sets_.size(); ++s) {
    std::vector<ExprPtr> operands;
    operands.push_back(plan::make_column(set_group_, SqlType::integer(), false));
    operands.push_back(plan::make_constant(Value::integer(static_cast<int32_t>(s))));
    ExprPtr test = plan::make_expr(ExprKind::kCompare, SqlType::boolean(), std::move(operands));
    test->compare_op = plan::CompareOp::kEqual;
    children.push_back(std::move(test));
    children.push_back(bits(grouping_sets_[s]));
  }
  children.push_back(bits(grouping_sets_.back()));
  ExprPtr result =
      plan::make_expr(ExprKind::kCase, SqlType::integer(), std::move(children), call.location);
  result->nullable = false;
  return result;
}

std::vector<plan::ColumnId> SelectBinder::add_map() {
  // With DISTINCT, ORDER BY may only name select items: resolve those before the items move.
  if (plain_distinct()) {
    for (SortItem& item : sort_items_) {
      if (item.output) continue;
      for (size_t t = 0; t < targets_.size() && !item.output; ++t)
        if (expr_equal(*item.expr, *targets_[t].expr)) item.output = t;
      if (!item.output)
        throw Error("for SELECT DISTINCT, ORDER BY expressions must appear in select list",
                    item.expr->position);
      item.expr.reset();
    }
  }
  auto map = std::make_unique<plan::MapOp>();
  std::vector<plan::ColumnId> outputs;
  for (Target& target : targets_) {
    if (keep_untyped_outputs_) {
      untyped_outputs_.emplace_back();
      if (is_unknown_literal(*target.expr)) {
        // A column no operator produces: the set operation reads the literal instead.
        outputs.push_back(context_.registry.add({target.expr->type, true, target.name}));
        untyped_outputs_.back() = std::move(target.expr);
        continue;
      }
    }
    target.expr = resolve_unknown(std::move(target.expr));
    if (target.expr->kind == ExprKind::kColumn) {
      outputs.push_back(target.expr->column);
      continue;
    }
    plan::ColumnId id =
        context_.registry.add({target.expr->type, target.expr->nullable, target.name});
    outputs.push_back(id);
    map->computed.push_back({id, target.expr->clone()});
  }
  if (!map->computed.empty()) {
    map->children.push_back(std::move(root_));
    root_ = std::move(map);
  }
  return outputs;
}

void SelectBinder::add_distinct(std::vector<plan::ColumnId>& outputs) {
  auto distinct = std::make_unique<plan::AggregateOp>();
  for (plan::ColumnId& output : outputs) {
    plan::ColumnInfo info = context_.registry[output];
    plan::ColumnId id = context_.registry.add(info);
    distinct->groups.push_back({id, plan::make_column(output, info.type, info.nullable)});
    output = id;
  }
  distinct->children.push_back(std::move(root_));
  root_ = std::move(distinct);
}

ExprPtr SelectBinder::item_expr(const SortItem& item,
                                const std::vector<plan::ColumnId>& outputs) const {
  std::optional<size_t> output = item.output;
  for (size_t t = 0; t < targets_.size() && !output; ++t)
    if (targets_[t].expr && expr_equal(*item.expr, *targets_[t].expr)) output = t;
  if (!output) return item.expr->clone();
  const plan::ColumnInfo& info = context_.registry[outputs[*output]];
  return plan::make_column(outputs[*output], info.type, info.nullable);
}

void SelectBinder::add_distinct_on(const std::vector<plan::ColumnId>& outputs) {
  std::vector<ExprPtr> keys;
  for (const SortItem& item : distinct_on_) keys.push_back(item_expr(item, outputs));
  std::vector<plan::SortKey> order;
  for (const SortItem& item : sort_items_)
    order.push_back({item_expr(item, outputs), item.descending, item.nulls_first});
  root_ = first_row_per_group(std::move(root_), std::move(keys), distinct_on_locations_,
                              std::move(order), context_.registry);
}

void SelectBinder::add_sort_and_limit(const std::vector<plan::ColumnId>& outputs) {
  std::vector<plan::SortKey> keys;
  for (SortItem& item : sort_items_) {
    plan::SortKey key;
    if (item.output) {
      const plan::ColumnInfo& info = context_.registry[outputs[*item.output]];
      key.expr = plan::make_column(outputs[*item.output], info.type, info.nullable);
    } else {
      key.expr = std::move(item.expr);
    }
    key.descending = item.descending;
    key.nulls_first = item.nulls_first;
    keys.push_back(std::move(key));
  }
  root_ = sql::add_sort_and_limit(std::move(root_), std::move(keys), stmt_, context_);
}

}  // namespace

BoundQuery bind_query(const PgQuery__SelectStmt& stmt, BindContext& context, const BindScope* outer,
                      bool keep_untyped_outputs) {
  if (stmt.op != PG_QUERY__SET_OPERATION__SETOP_NONE || stmt.n_values_lists)
    return bind_set_operation(stmt, context, outer);
  return SelectBinder(stmt, context, outer, keep_untyped_outputs).bind();
}

plan::LogicalPlan bind_select(const PgQuery__SelectStmt& stmt, const Catalog& catalog) {
  plan::LogicalPlan plan;
  BindContext context{catalog, plan.registry};
  BoundQuery query = bind_query(stmt, context, nullptr);
  plan.root = std::move(query.root);
  plan.outputs = std::move(query.outputs);
  plan.recursive_queries = std::move(context.recursive_queries);
  return plan;
}

}  // namespace floe::sql
