#include "engine/sql/select_binder.h"

#include <optional>

#include "engine/plan/expression_utils.h"
#include "engine/plan/logical_walk.h"
#include "engine/sql/expression_binder.h"
#include "engine/sql/from_binder.h"
#include "engine/sql/type_rules.h"
#include "storage/error.h"
#include "storage/stack_depth.h"

namespace floe::sql {

using plan::ExprKind;
using plan::ExprPtr;

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

// Puts a WITH clause's queries in scope for one query level.
class WithQueries {
 public:
  WithQueries(const PgQuery__WithClause* with, BindContext& context)
      : context_(context), outer_count_(context.ctes.size()) {
    if (!with) return;
    if (with->recursive) throw NotSupported("WITH RECURSIVE", with->location);
    for (size_t i = 0; i < with->n_ctes; ++i) {
      const PgQuery__CommonTableExpr* cte = with->ctes[i]->common_table_expr;
      for (size_t j = outer_count_; j < context.ctes.size(); ++j)
        if (std::string_view(context.ctes[j]->ctename) == cte->ctename)
          throw Error(
              "WITH query name \"" + std::string(cte->ctename) + "\" specified more than once",
              cte->location);
      context.ctes.push_back(cte);
    }
  }
  ~WithQueries() { context_.ctes.resize(outer_count_); }
  WithQueries(const WithQueries&) = delete;
  WithQueries& operator=(const WithQueries&) = delete;

 private:
  BindContext& context_;
  size_t outer_count_;
};

class SelectBinder : public AggregateBinder {
 public:
  SelectBinder(const PgQuery__SelectStmt& stmt, BindContext& context, const BindScope* outer)
      : stmt_(stmt), context_(context), scope_(outer) {}

  BoundQuery bind();
  ExprPtr bind_aggregate(const PgQuery__FuncCall& call) override;

 private:
  void check_supported() const;
  void bind_group_by();
  ExprPtr bind_group_item(const Node* node);
  void bind_targets();
  void bind_order_by();
  void replace_groups(ExprPtr& expr) const;
  bool grouped() const { return !groups_.empty() || !aggregates_.empty() || stmt_.having_clause; }
  void apply_grouping();
  std::optional<uint64_t> bind_limit_value(const Node* node, const char* what);
  std::vector<plan::ColumnId> add_map();
  void add_distinct(std::vector<plan::ColumnId>& outputs);
  void add_sort_and_limit(const std::vector<plan::ColumnId>& outputs);

  const PgQuery__SelectStmt& stmt_;
  BindContext& context_;
  BindScope scope_;
  plan::LogicalOpPtr root_;
  std::vector<ExprPtr> group_exprs_;
  std::vector<plan::AggregateOp::Group> groups_;
  std::vector<plan::AggregateOp::Aggregate> aggregates_;
  bool in_aggregate_argument_ = false;
  std::vector<Target> targets_;
  ExprPtr having_;
  std::vector<SortItem> sort_items_;
};

void SelectBinder::check_supported() const {
  if (stmt_.op != PG_QUERY__SET_OPERATION__SETOP_NONE)
    throw NotSupported("set operations (UNION, INTERSECT, EXCEPT)");
  if (stmt_.n_values_lists) throw NotSupported("VALUES lists as queries");
  if (stmt_.n_window_clause) throw NotSupported("window functions");
  if (stmt_.into_clause) throw NotSupported("SELECT INTO");
  if (stmt_.n_locking_clause) throw NotSupported("FOR UPDATE / FOR SHARE");
  if (stmt_.group_distinct) throw NotSupported("GROUP BY DISTINCT");
  if (stmt_.n_distinct_clause &&
      stmt_.distinct_clause[0]->node_case != PG_QUERY__NODE__NODE__NOT_SET)
    throw NotSupported("DISTINCT ON", node_location(stmt_.distinct_clause[0]));
  if (stmt_.limit_option == PG_QUERY__LIMIT_OPTION__LIMIT_OPTION_WITH_TIES)
    throw NotSupported("FETCH ... WITH TIES");
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
  if (stmt_.having_clause)
    having_ = ExpressionBinder(context_, scope_, "HAVING", this)
                  .bind_condition(stmt_.having_clause, "HAVING");
  bind_order_by();
  if (grouped()) apply_grouping();
  std::vector<plan::ColumnId> outputs = add_map();
  if (stmt_.n_distinct_clause) add_distinct(outputs);
  add_sort_and_limit(outputs);
  BoundQuery result;
  result.root = std::move(root_);
  for (size_t i = 0; i < outputs.size(); ++i)
    result.outputs.push_back({outputs[i], targets_[i].name});
  return result;
}

void SelectBinder::bind_group_by() {
  for (size_t i = 0; i < stmt_.n_group_clause; ++i) {
    const Node* node = stmt_.group_clause[i];
    if (node->node_case == PG_QUERY__NODE__NODE_GROUPING_SET)
      throw NotSupported("GROUPING SETS / ROLLUP / CUBE", node_location(node));
    ExprPtr expr = resolve_unknown(bind_group_item(node));
    std::string name =
        expr->kind == ExprKind::kColumn ? context_.registry[expr->column].name : "?column?";
    plan::ColumnId id = context_.registry.add({expr->type, expr->nullable, name});
    groups_.push_back({id, expr->clone()});
    group_exprs_.push_back(std::move(expr));
  }
}

ExprPtr SelectBinder::bind_group_item(const Node* node) {
  ExpressionBinder binder(context_, scope_, "GROUP BY");
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
    return binder.bind(target_value(ordinal - 1));
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
        if (alias && name == alias) return binder.bind(target_value(i));
      }
    }
  }
  return binder.bind(node);
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

void SelectBinder::bind_order_by() {
  ExpressionBinder binder(context_, scope_, "ORDER BY", this);
  for (size_t i = 0; i < stmt_.n_sort_clause; ++i) {
    const PgQuery__SortBy& sort = *stmt_.sort_clause[i]->sort_by;
    if (sort.sortby_dir == PG_QUERY__SORT_BY_DIR__SORTBY_USING)
      throw NotSupported("ORDER BY ... USING", sort.location);
    SortItem item;
    item.descending = sort.sortby_dir == PG_QUERY__SORT_BY_DIR__SORTBY_DESC;
    item.nulls_first =
        sort.sortby_nulls == PG_QUERY__SORT_BY_NULLS__SORTBY_NULLS_FIRST ||
        (sort.sortby_nulls != PG_QUERY__SORT_BY_NULLS__SORTBY_NULLS_LAST && item.descending);
    const Node* node = sort.node;
    if (node->node_case == PG_QUERY__NODE__NODE_A_CONST &&
        node->a_const->val_case == PG_QUERY__A__CONST__VAL_IVAL) {
      int64_t ordinal = node->a_const->ival->ival;
      if (ordinal < 1 || static_cast<size_t>(ordinal) > targets_.size())
        throw Error("ORDER BY position " + std::to_string(ordinal) + " is not in select list",
                    node_location(node));
      item.output = static_cast<size_t>(ordinal - 1);
    } else if (node->node_case == PG_QUERY__NODE__NODE_COLUMN_REF &&
               node->column_ref->n_fields == 1 &&
               node->column_ref->fields[0]->node_case == PG_QUERY__NODE__NODE_STRING) {
      std::string_view name = node_string(node->column_ref->fields[0]);
      for (size_t t = 0; t < targets_.size(); ++t) {
        if (targets_[t].name != name) continue;
        if (item.output && !expr_equal(*targets_[*item.output].expr, *targets_[t].expr))
          throw Error("ORDER BY \"" + std::string(name) + "\" is ambiguous", node_location(node));
        item.output = t;
      }
    }
    if (!item.output) item.expr = resolve_unknown(binder.bind(node));
    sort_items_.push_back(std::move(item));
  }
}

ExprPtr SelectBinder::bind_aggregate(const PgQuery__FuncCall& call) {
  std::string_view name = last_name(call.funcname, call.n_funcname);
  if (in_aggregate_argument_)
    throw Error("aggregate function calls cannot be nested", call.location);
  if (call.agg_filter) throw NotSupported("aggregate FILTER", call.location);
  if (call.n_agg_order || call.agg_within_group)
    throw NotSupported("ordered aggregates", call.location);
  plan::AggregateOp::Aggregate aggregate;
  aggregate.distinct = call.agg_distinct;
  SqlType type = SqlType::big_int();
  bool nullable = false;
  if (call.agg_star) {
    if (name != "count")
      throw Error(std::string(name) + "(*) must be used with count", call.location);
    aggregate.function = plan::AggregateFunction::kCountStar;
  } else {
    if (call.n_args != 1)
      throw Error("function " + std::string(name) + " takes exactly one argument", call.location);
    in_aggregate_argument_ = true;
    ExprPtr argument = ExpressionBinder(context_, scope_, "aggregate", this).bind(call.args[0]);
    in_aggregate_argument_ = false;
    const SqlType arg = argument->type;
    auto no_function = [&]() {
      throw Error("function " + std::string(name) + "(" + arg.to_string() + ") does not exist",
                  call.location);
    };
    nullable = groups_.empty() || argument->nullable;
    if (name == "count") {
      aggregate.function = plan::AggregateFunction::kCount;
      argument = resolve_unknown(std::move(argument));
      nullable = false;
    } else if (name == "sum" || name == "avg") {
      if (!arg.is_numeric()) no_function();
      aggregate.function =
          name == "sum" ? plan::AggregateFunction::kSum : plan::AggregateFunction::kAvg;
      if (name == "avg" || arg.id == TypeId::kDouble)
        type = SqlType::double_type();
      else if (arg.id == TypeId::kDecimal)
        type = SqlType::decimal(kMaxDecimalPrecision, arg.scale);
      else if (arg.id == TypeId::kBigInt)
        type = SqlType::decimal(kMaxDecimalPrecision, 0);
    } else {
      argument = resolve_unknown(std::move(argument));
      if (argument->type.id == TypeId::kBoolean || argument->type.id == TypeId::kInterval)
        no_function();
      aggregate.function =
          name == "min" ? plan::AggregateFunction::kMin : plan::AggregateFunction::kMax;
      aggregate.distinct = false;  // min/max(DISTINCT x) = min/max(x)
      type = argument->type;
    }
    aggregate.argument = std::move(argument);
  }
  for (const auto& existing : aggregates_) {
    bool same_argument = existing.argument ? aggregate.argument &&
                                                 expr_equal(*existing.argument, *aggregate.argument)
                                           : !aggregate.argument;
    if (existing.function == aggregate.function && existing.distinct == aggregate.distinct &&
        same_argument) {
      const plan::ColumnInfo& info = context_.registry[existing.id];
      ExprPtr ref = plan::make_column(existing.id, info.type, info.nullable);
      ref->position = call.location;
      return ref;
    }
  }
  aggregate.id = context_.registry.add({type, nullable, std::string(name)});
  ExprPtr ref = plan::make_column(aggregate.id, type, nullable);
  ref->position = call.location;
  aggregates_.push_back(std::move(aggregate));
  return ref;
}

void SelectBinder::replace_groups(ExprPtr& expr) const {
  check_stack_depth();
  for (size_t i = 0; i < group_exprs_.size(); ++i) {
    if (expr_equal(*expr, *group_exprs_[i])) {
      int position = expr->position;
      expr = plan::make_column(groups_[i].id, group_exprs_[i]->type, group_exprs_[i]->nullable);
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
  auto aggregate = std::make_unique<plan::AggregateOp>();
  aggregate->groups = std::move(groups_);
  aggregate->aggregates = std::move(aggregates_);
  aggregate->children.push_back(std::move(root_));
  root_ = std::move(aggregate);
  if (having_) {
    auto filter = std::make_unique<plan::FilterOp>();
    filter->predicate = std::move(having_);
    filter->children.push_back(std::move(root_));
    root_ = std::move(filter);
  }
}

std::vector<plan::ColumnId> SelectBinder::add_map() {
  // With DISTINCT, ORDER BY may only name select items: resolve those before the items move.
  if (stmt_.n_distinct_clause) {
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

std::optional<uint64_t> SelectBinder::bind_limit_value(const Node* node, const char* what) {
  if (!node) return std::nullopt;
  BindScope empty;
  ExprPtr expr = ExpressionBinder(context_, empty, what).bind(node);
  if (expr->kind != ExprKind::kConstant || !(expr->type.is_integer() || is_unknown_literal(*expr)))
    throw NotSupported(std::string(what) + " with a non-constant or non-integer value",
                       node_location(node));
  Value value = cast_value(expr->constant, SqlType::big_int());
  if (value.is_null()) return std::nullopt;
  if (value.as_int64() < 0)
    throw Error(std::string(what) + " must not be negative", node_location(node));
  return static_cast<uint64_t>(value.as_int64());
}

void SelectBinder::add_sort_and_limit(const std::vector<plan::ColumnId>& outputs) {
  std::optional<uint64_t> limit = bind_limit_value(stmt_.limit_count, "LIMIT");
  uint64_t offset = bind_limit_value(stmt_.limit_offset, "OFFSET").value_or(0);
  if (!sort_items_.empty()) {
    auto sort = std::make_unique<plan::SortOp>();
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
      sort->keys.push_back(std::move(key));
    }
    sort->limit = limit;
    sort->offset = offset;
    sort->children.push_back(std::move(root_));
    root_ = std::move(sort);
  } else if (limit || offset) {
    auto op = std::make_unique<plan::LimitOp>();
    op->limit = limit;
    op->offset = offset;
    op->children.push_back(std::move(root_));
    root_ = std::move(op);
  }
}

}  // namespace

BoundQuery bind_query(const PgQuery__SelectStmt& stmt, BindContext& context,
                      const BindScope* outer) {
  return SelectBinder(stmt, context, outer).bind();
}

plan::LogicalPlan bind_select(const PgQuery__SelectStmt& stmt, const Catalog& catalog) {
  plan::LogicalPlan plan;
  BindContext context{catalog, plan.registry};
  BoundQuery query = bind_query(stmt, context, nullptr);
  plan.root = std::move(query.root);
  plan.outputs = std::move(query.outputs);
  return plan;
}

}  // namespace floe::sql
