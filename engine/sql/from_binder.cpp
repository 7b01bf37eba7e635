#include "engine/sql/from_binder.h"

#include <algorithm>
#include <optional>
#include <set>

#include "engine/plan/correlation.h"
#include "engine/plan/expression_utils.h"
#include "engine/sql/expression_binder.h"
#include "engine/sql/join_using.h"
#include "engine/sql/parser.h"
#include "engine/sql/recursive_cte_binder.h"
#include "engine/sql/select_binder.h"
#include "engine/sql/system_tables.h"
#include "engine/sql/table_function_binder.h"
#include "storage/error.h"
#include "storage/stack_depth.h"

namespace floe::sql {

plan::LogicalOpPtr bind_scan(const Table& table, const std::string& alias, BindContext& context,
                             BindScope& scope, int location) {
  auto scan = std::make_unique<plan::ScanOp>();
  scan->table = &table;
  scan->alias = alias;
  scan->estimated_rows = static_cast<double>(table.live_row_count());
  ScopeTable scope_table{alias, {}};
  for (size_t i = 0; i < table.columns().size(); ++i) {
    const ColumnDef& column = table.columns()[i];
    plan::ColumnId id = context.registry.add({column.type, column.nullable, column.name});
    scan->columns.push_back({i, id});
    scope_table.columns.push_back({column.name, id, column.type, column.nullable});
  }
  scope.add_table(std::move(scope_table), location);
  return scan;
}

plan::LogicalOpPtr add_query_table(BoundQuery query, const std::string& alias,
                                   const std::vector<std::string>& names, BindContext& context,
                                   BindScope& scope, int location) {
  ScopeTable table{alias, {}};
  for (const auto& output : query.outputs) {
    const plan::ColumnInfo& info = context.registry[output.id];
    table.columns.push_back({output.name, output.id, info.type, info.nullable});
  }
  scope.add_table(std::move(table), location);
  scope.rename_columns(scope.tables().size() - 1, names, location);
  return std::move(query.root);
}

std::vector<std::string> string_list(Node* const* nodes, size_t count) {
  std::vector<std::string> strings;
  for (size_t i = 0; i < count; ++i) strings.emplace_back(node_string(nodes[i]));
  return strings;
}

namespace {

plan::LogicalOpPtr bind_from_item(const Node* node, BindContext& context, BindScope& scope);

// A subquery in FROM. It may read columns of enclosing queries, and with LATERAL those of
// the FROM items before it: the unnesting pass turns its join into a dependent join
// (engine/plan/dependent_join.h).
plan::LogicalOpPtr bind_derived_table(const PgQuery__RangeSubselect& range, BindContext& context,
                                      BindScope& scope) {
  if (!range.alias) throw Error("subquery in FROM must have an alias");
  BindScope not_lateral(scope.outer(), &scope);
  BoundQuery query =
      bind_query(*range.subquery->select_stmt, context, range.lateral ? &scope : &not_lateral);
  const PgQuery__Alias& alias = *range.alias;
  return add_query_table(std::move(query), alias.aliasname,
                         string_list(alias.colnames, alias.n_colnames), context, scope, -1);
}

// The innermost visible WITH query of that name, and its index in context.ctes.
std::optional<size_t> find_cte(const BindContext& context, std::string_view name) {
  for (size_t i = context.ctes.size(); i > 0; --i)
    if (name == context.ctes[i - 1]->ctename) return i - 1;
  return std::nullopt;
}

// Only the first `visible` WITH queries can be named while this lives.
class VisibleCtes {
 public:
  VisibleCtes(BindContext& context, size_t visible)
      : context_(context), hidden_(context.ctes.begin() + visible, context.ctes.end()) {
    context.ctes.resize(visible);
  }
  ~VisibleCtes() { context_.ctes.insert(context_.ctes.end(), hidden_.begin(), hidden_.end()); }
  VisibleCtes(const VisibleCtes&) = delete;
  VisibleCtes& operator=(const VisibleCtes&) = delete;

 private:
  BindContext& context_;
  std::vector<const PgQuery__CommonTableExpr*> hidden_;
};

std::string alias_of(const PgQuery__RangeVar& range) {
  return range.alias ? range.alias->aliasname : range.relname;
}

// A WITH query is bound anew at each reference, like a derived table.
plan::LogicalOpPtr bind_cte_reference(const PgQuery__RangeVar& range, size_t index,
                                      BindContext& context, BindScope& scope) {
  const PgQuery__CommonTableExpr& cte = *context.ctes[index];
  if (cte.ctequery->node_case != PG_QUERY__NODE__NODE_SELECT_STMT)
    throw NotSupported("WITH queries other than SELECT", cte.location);
  VisibleCtes visible(context, index);
  if (context.recursive_ctes.count(&cte)) {
    if (auto result = bind_recursive_cte(cte, context, alias_of(range), range.location, scope))
      return result;
  }
  BoundQuery query = bind_query(*cte.ctequery->select_stmt, context, nullptr);
  return add_query_table(std::move(query), alias_of(range),
                         string_list(cte.aliascolnames, cte.n_aliascolnames), context, scope,
                         range.location);
}

// A view: its stored CREATE VIEW statement is parsed and its query bound where it is named.
plan::LogicalOpPtr bind_view_reference(const PgQuery__RangeVar& range, const View& view,
                                       BindContext& context, BindScope& scope) {
  ParseTree tree(view.definition);
  const PgQuery__ViewStmt& stmt = *tree.statement(0).stmt->view_stmt;
  VisibleCtes visible(context, 0);  // the referencing query's WITH is not in the view's scope
  BoundQuery query;
  try {
    query = bind_query(*stmt.query->select_stmt, context, nullptr);
  } catch (const StackDepthExceeded&) {
    throw;
  } catch (const Error& error) {  // its positions are not in this statement
    throw Error("in view \"" + std::string(range.relname) + "\": " + error.what(), range.location);
  }
  return add_query_table(std::move(query), alias_of(range), view.column_names, context, scope,
                         range.location);
}

plan::LogicalOpPtr bind_relation(const PgQuery__RangeVar& range, BindContext& context,
                                 BindScope& scope) {
  if (range.schemaname && *range.schemaname) throw NotSupported("schemas", range.location);
  if (WorkingTable* working = find_working_table(context, range.relname))
    return bind_working_table(*working, alias_of(range), context, scope, range.location);
  if (auto cte = find_cte(context, range.relname))
    return bind_cte_reference(range, *cte, context, scope);
  if (const View* view = context.catalog.find_view(range.relname))
    return bind_view_reference(range, *view, context, scope);
  const Table* table = context.catalog.find_table(range.relname);
  if (!table) {
    if (auto system = bind_system_table(range, context, scope)) return system;
    throw Error("relation \"" + std::string(range.relname) + "\" does not exist", range.location);
  }
  return bind_scan(*table, alias_of(range), context, scope, range.location);
}

// A table, view or WITH query named in FROM, with its column aliases (AS x(a, b)).
plan::LogicalOpPtr bind_table(const PgQuery__RangeVar& range, BindContext& context,
                              BindScope& scope) {
  size_t index = scope.tables().size();
  plan::LogicalOpPtr table = bind_relation(range, context, scope);
  if (range.alias && range.alias->n_colnames)
    scope.rename_columns(index, string_list(range.alias->colnames, range.alias->n_colnames),
                         range.location);
  return table;
}

plan::LogicalOpPtr make_join(plan::LogicalOpPtr left, plan::LogicalOpPtr right,
                             plan::ExprPtr condition) {
  auto join = std::make_unique<plan::JoinOp>();
  join->children.push_back(std::move(left));
  join->children.push_back(std::move(right));
  join->residual = std::move(condition);
  return join;
}

bool all_in(const std::set<plan::ColumnId>& columns, const std::set<plan::ColumnId>& side) {
  return !columns.empty() &&
         std::includes(side.begin(), side.end(), columns.begin(), columns.end());
}

bool has_subquery(const plan::Expr& expr) {
  return plan::is_subquery(expr.kind) ||
         std::any_of(expr.children.begin(), expr.children.end(),
                     [](const plan::ExprPtr& child) { return has_subquery(*child); });
}

// probe LEFT/FULL JOIN build ON condition. The planner keeps outer joins in place (they are
// not part of an inner-join region), so the ON conjuncts are placed here: equalities between
// the two sides become keys, conjuncts over the build side alone filter it before a LEFT join
// (it is not preserved), and the rest is the residual, which decides which pairs match. The
// unnesting pass places the subqueries of the residual (subquery_unnesting.cpp).
plan::LogicalOpPtr make_outer_join(plan::JoinType type, plan::LogicalOpPtr probe,
                                   plan::LogicalOpPtr build, plan::ExprPtr condition) {
  auto to_set = [](const std::vector<plan::ColumnId>& ids) {
    return std::set<plan::ColumnId>(ids.begin(), ids.end());
  };
  std::set<plan::ColumnId> probe_columns = to_set(plan::output_columns(*probe));
  std::set<plan::ColumnId> build_columns = to_set(plan::output_columns(*build));
  auto join = std::make_unique<plan::JoinOp>();
  join->type = type;
  join->estimated_rows = std::max(probe->estimated_rows, build->estimated_rows);
  std::vector<plan::ExprPtr> conjuncts, build_filters, residual;
  if (condition) plan::split_conjuncts(std::move(condition), conjuncts);
  for (plan::ExprPtr& conjunct : conjuncts) {
    if (type == plan::JoinType::kLeftOuter && !has_subquery(*conjunct) &&
        all_in(columns_of(*conjunct), build_columns)) {
      build_filters.push_back(std::move(conjunct));
      continue;
    }
    if (conjunct->kind == plan::ExprKind::kCompare &&
        conjunct->compare_op == plan::CompareOp::kEqual) {
      plan::ExprPtr& a = conjunct->children[0];
      plan::ExprPtr& b = conjunct->children[1];
      if (all_in(columns_of(*a), build_columns) && all_in(columns_of(*b), probe_columns))
        std::swap(a, b);
      if (all_in(columns_of(*a), probe_columns) && all_in(columns_of(*b), build_columns) &&
          a->type == b->type) {
        join->keys.push_back({std::move(a), std::move(b)});
        continue;
      }
    }
    residual.push_back(std::move(conjunct));
  }
  join->residual = plan::make_conjunction(std::move(residual));
  if (!build_filters.empty()) {
    auto filter = std::make_unique<plan::FilterOp>();
    filter->estimated_rows = build->estimated_rows;
    filter->predicate = plan::make_conjunction(std::move(build_filters));
    filter->children.push_back(std::move(build));
    build = std::move(filter);
  }
  join->children.push_back(std::move(probe));
  join->children.push_back(std::move(build));
  return join;
}

// The JoinOp of an INNER, LEFT, RIGHT or FULL join of the two sides, whose tables are
// scope.tables()[left_tables..right_tables) and [right_tables..end_tables).
plan::LogicalOpPtr bind_join_type(PgQuery__JoinType type, plan::LogicalOpPtr left,
                                  plan::LogicalOpPtr right, plan::ExprPtr condition,
                                  BindContext& context, BindScope& scope, size_t left_tables,
                                  size_t right_tables, size_t end_tables) {
  switch (type) {
    case PG_QUERY__JOIN_TYPE__JOIN_LEFT:
      scope.make_nullable(right_tables, end_tables, context.registry);
      return make_outer_join(plan::JoinType::kLeftOuter, std::move(left), std::move(right),
                             std::move(condition));
    case PG_QUERY__JOIN_TYPE__JOIN_RIGHT:  // as a LEFT join with the sides swapped
      scope.make_nullable(left_tables, right_tables, context.registry);
      return make_outer_join(plan::JoinType::kLeftOuter, std::move(right), std::move(left),
                             std::move(condition));
    case PG_QUERY__JOIN_TYPE__JOIN_FULL:
      scope.make_nullable(left_tables, end_tables, context.registry);
      return make_outer_join(plan::JoinType::kFullOuter, std::move(left), std::move(right),
                             std::move(condition));
    default:
      return make_join(std::move(left), std::move(right), std::move(condition));
  }
}

// As in PostgreSQL, a LATERAL item may read the other side of its join only in an INNER or
// LEFT join, where each of that side's rows gets its own result.
void check_lateral_join_type(PgQuery__JoinType type, plan::LogicalOp& right, const BindScope& scope,
                             size_t left_tables, size_t right_tables) {
  if (type != PG_QUERY__JOIN_TYPE__JOIN_RIGHT && type != PG_QUERY__JOIN_TYPE__JOIN_FULL) return;
  plan::ColumnSet read = plan::free_columns(right);
  for (size_t t = left_tables; t < right_tables; ++t) {
    const ScopeTable& table = scope.tables()[t];
    for (const ScopeColumn& column : table.columns)
      if (read.count(column.id))
        throw Error("invalid reference to FROM-clause entry for table \"" + table.alias + "\"");
  }
}

plan::LogicalOpPtr bind_join(const PgQuery__JoinExpr& join, BindContext& context,
                             BindScope& scope) {
  switch (join.jointype) {
    case PG_QUERY__JOIN_TYPE__JOIN_INNER:
    case PG_QUERY__JOIN_TYPE__JOIN_LEFT:
    case PG_QUERY__JOIN_TYPE__JOIN_RIGHT:
    case PG_QUERY__JOIN_TYPE__JOIN_FULL:
      break;
    default:
      throw NotSupported("this kind of join");
  }
  if (join.alias) throw NotSupported("aliases of joins");
  size_t left_tables = scope.tables().size();
  plan::LogicalOpPtr left = bind_from_item(join.larg, context, scope);
  size_t right_tables = scope.tables().size();
  plan::LogicalOpPtr right = bind_from_item(join.rarg, context, scope);
  size_t end_tables = scope.tables().size();
  check_lateral_join_type(join.jointype, *right, scope, left_tables, right_tables);
  plan::ExprPtr condition;
  std::optional<UsingColumns> using_columns;
  if (join.is_natural || join.n_using_clause) {
    using_columns.emplace(join, scope, left_tables, right_tables, end_tables);
    condition = using_columns->take_condition();
  } else if (join.quals) {
    condition =
        ExpressionBinder(context, scope, "JOIN conditions").bind_condition(join.quals, "JOIN/ON");
  }
  plan::LogicalOpPtr result =
      bind_join_type(join.jointype, std::move(left), std::move(right), std::move(condition),
                     context, scope, left_tables, right_tables, end_tables);
  if (!using_columns) return result;
  return using_columns->merge(std::move(result), join.jointype, context, scope, left_tables);
}

plan::LogicalOpPtr bind_from_item(const Node* node, BindContext& context, BindScope& scope) {
  check_stack_depth();
  switch (node->node_case) {
    case PG_QUERY__NODE__NODE_RANGE_VAR:
      return bind_table(*node->range_var, context, scope);
    case PG_QUERY__NODE__NODE_JOIN_EXPR:
      return bind_join(*node->join_expr, context, scope);
    case PG_QUERY__NODE__NODE_RANGE_SUBSELECT:
      return bind_derived_table(*node->range_subselect, context, scope);
    case PG_QUERY__NODE__NODE_RANGE_FUNCTION:
      return bind_table_function(*node->range_function, context, scope);
    default:
      throw NotSupported("this kind of FROM item");
  }
}

}  // namespace

plan::LogicalOpPtr bind_from_clause(Node* const* items, size_t count, BindContext& context,
                                    BindScope& scope) {
  if (count == 0) {
    auto values = std::make_unique<plan::ValuesOp>();
    values->rows.emplace_back();
    values->estimated_rows = 1;
    return values;
  }
  plan::LogicalOpPtr root;
  for (size_t i = 0; i < count; ++i) {
    plan::LogicalOpPtr item = bind_from_item(items[i], context, scope);
    root = root ? make_join(std::move(root), std::move(item), nullptr) : std::move(item);
  }
  return root;
}

}  // namespace floe::sql
