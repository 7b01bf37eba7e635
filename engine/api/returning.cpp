#include "engine/api/returning.h"

#include "engine/api/row_constraints.h"
#include "engine/sql/expression_binder.h"
#include "engine/sql/select_binder.h"
#include "engine/sql/type_rules.h"

namespace floe {

ReturningList::ReturningList(PgQuery__Node* const* items, size_t count, const Table& table,
                             const std::string& alias, const Catalog& catalog) {
  if (count == 0) return;
  plan::ColumnRegistry registry;
  sql::BindContext context{catalog, registry};
  sql::BindScope scope = table_scope(alias, table.columns(), registry);
  sql::ExpressionBinder binder(context, scope, "RETURNING");
  for (size_t i = 0; i < count; ++i) {
    const PgQuery__ResTarget& target = *items[i]->res_target;
    const PgQuery__Node* value = target.val;
    if (value->node_case == PG_QUERY__NODE__NODE_COLUMN_REF) {
      const PgQuery__ColumnRef& ref = *value->column_ref;
      if (ref.fields[ref.n_fields - 1]->node_case == PG_QUERY__NODE__NODE_A_STAR) {
        std::string_view name = ref.n_fields == 2 ? sql::node_string(ref.fields[0]) : "";
        for (const sql::ScopeColumn* column : scope.star(name, ref.location)) {
          exprs_.push_back(plan::make_column(column->id, column->type, column->nullable));
          output_.column_names.push_back(column->name);
          output_.column_types.push_back(column->type);
        }
        continue;
      }
    }
    plan::ExprPtr expr = sql::resolve_unknown(binder.bind(value));
    output_.column_names.push_back(target.name && *target.name
                                       ? target.name
                                       : sql::figure_column_name(value).value_or("?column?"));
    output_.column_types.push_back(expr->type);
    exprs_.push_back(std::move(expr));
  }
}

void ReturningList::add(const std::vector<Value>& row) {
  if (exprs_.empty()) return;
  std::vector<Value>& values = output_.rows.emplace_back();
  for (const plan::ExprPtr& expr : exprs_) values.push_back(evaluate_row_expression(*expr, row));
}

Result ReturningList::result(std::string tag, uint64_t affected_rows) {
  if (exprs_.empty()) return Result::command(std::move(tag), affected_rows);
  return Result::returning(std::move(output_), std::move(tag));
}

}  // namespace floe
