#include "engine/sql/join_using.h"

#include <algorithm>

#include "engine/plan/expression_utils.h"
#include "engine/sql/expression_binder.h"
#include "storage/error.h"

namespace floe::sql {

namespace {

// The one column an unqualified `name` means on one side of the join.
const ScopeColumn& side_column(BindScope& scope, size_t first, size_t end, const std::string& name,
                               const char* side) {
  std::vector<ScopeColumn*> found = scope.unqualified_columns(first, end, name);
  if (found.empty())
    throw Error("column \"" + name + "\" specified in USING clause does not exist in " + side +
                " table");
  if (found.size() > 1)
    throw Error("common column name \"" + name + "\" appears more than once in " + side + " table");
  return *found.front();
}

// NATURAL JOIN: the unqualified names of the left side that the right side has too.
std::vector<std::string> common_names(BindScope& scope, size_t left_first, size_t right_first,
                                      size_t end) {
  std::vector<std::string> names;
  for (size_t t = left_first; t < right_first; ++t) {
    for (const ScopeColumn& column : scope.tables()[t].columns) {
      if (column.qualified_only ||
          std::find(names.begin(), names.end(), column.name) != names.end())
        continue;
      if (!scope.unqualified_columns(right_first, end, column.name).empty())
        names.push_back(column.name);
    }
  }
  return names;
}

}  // namespace

UsingColumns::UsingColumns(const PgQuery__JoinExpr& join, BindScope& scope, size_t left_first,
                           size_t right_first, size_t end) {
  if (join.join_using_alias) throw NotSupported("aliases of JOIN ... USING");
  std::vector<std::string> names;
  if (join.is_natural) {
    names = common_names(scope, left_first, right_first, end);
  } else {
    for (size_t i = 0; i < join.n_using_clause; ++i) {
      std::string name(node_string(join.using_clause[i]));
      if (std::find(names.begin(), names.end(), name) != names.end())
        throw Error("column name \"" + name + "\" appears more than once in USING clause");
      names.push_back(std::move(name));
    }
  }
  for (const std::string& name : names) {
    const ScopeColumn& left = side_column(scope, left_first, right_first, name, "left");
    const ScopeColumn& right = side_column(scope, right_first, end, name, "right");
    // The comparison's casts give the pair's common type (and its error when there is none).
    plan::ExprPtr equal =
        ExpressionBinder::comparison("=", plan::make_column(left.id, left.type, left.nullable),
                                     plan::make_column(right.id, right.type, right.nullable), -1);
    pairs_.push_back({name, left.id, right.id, equal->children[0]->type});
    equalities_.push_back(std::move(equal));
  }
}

plan::ExprPtr UsingColumns::take_condition() {
  return equalities_.empty() ? nullptr : plan::make_conjunction(std::move(equalities_));
}

plan::LogicalOpPtr UsingColumns::merge(plan::LogicalOpPtr join, PgQuery__JoinType type,
                                       BindContext& context, BindScope& scope,
                                       size_t left_first) const {
  if (pairs_.empty()) return join;
  auto map = std::make_unique<plan::MapOp>();
  std::vector<ScopeColumn> merged;
  auto column = [&](plan::ColumnId id) {
    const plan::ColumnInfo& info = context.registry[id];
    return plan::make_column(id, info.type, info.nullable);
  };
  for (const Pair& pair : pairs_) {
    const plan::ColumnInfo& left = context.registry[pair.left];
    const plan::ColumnInfo& right = context.registry[pair.right];
    plan::ExprPtr value;
    if (type == PG_QUERY__JOIN_TYPE__JOIN_FULL) {
      std::vector<plan::ExprPtr> both;
      both.push_back(plan::make_cast(column(pair.left), pair.type));
      both.push_back(plan::make_cast(column(pair.right), pair.type));
      value = plan::make_expr(plan::ExprKind::kCoalesce, pair.type, std::move(both));
      value->nullable = left.nullable && right.nullable;
    } else {
      plan::ColumnId kept = type == PG_QUERY__JOIN_TYPE__JOIN_RIGHT ? pair.right : pair.left;
      if (context.registry[kept].type == pair.type) {
        merged.push_back({pair.name, kept, pair.type, context.registry[kept].nullable});
        continue;
      }
      value = plan::make_cast(column(kept), pair.type);
    }
    plan::ColumnId id = context.registry.add({pair.type, value->nullable, pair.name});
    merged.push_back({pair.name, id, pair.type, value->nullable});
    map->computed.push_back({id, std::move(value)});
  }
  for (const Pair& pair : pairs_) {
    for (size_t t = 0; t < scope.tables().size(); ++t)
      for (ScopeColumn* source : scope.unqualified_columns(t, t + 1, pair.name))
        if (source->id == pair.left || source->id == pair.right) source->qualified_only = true;
  }
  scope.insert_merged_columns(left_first, std::move(merged));
  if (map->computed.empty()) return join;
  map->estimated_rows = join->estimated_rows;
  map->children.push_back(std::move(join));
  return map;
}

}  // namespace floe::sql
