#include "engine/api/row_constraints.h"

#include <algorithm>

#include "engine/vector/expression_executor.h"
#include "engine/plan/expression_utils.h"
#include "engine/sql/expression_binder.h"
#include "engine/sql/expression_text.h"
#include "engine/sql/type_rules.h"
#include "storage/error.h"
#include "storage/foreign_key.h"
#include "storage/identifier.h"

namespace floe {

void add_scope_table(sql::BindScope& scope, const std::string& table_name,
                     const std::vector<ColumnDef>& columns, plan::ColumnRegistry& registry) {
  sql::ScopeTable table{table_name, {}};
  for (const ColumnDef& column : columns) {
    plan::ColumnId id = registry.add({column.type, column.nullable, column.name});
    table.columns.push_back({column.name, id, column.type, column.nullable});
  }
  scope.add_table(std::move(table), -1);
}

sql::BindScope table_scope(const std::string& table_name, const std::vector<ColumnDef>& columns,
                           plan::ColumnRegistry& registry) {
  sql::BindScope scope;
  add_scope_table(scope, table_name, columns, registry);
  return scope;
}

namespace {

// The first node of `expr` (pre-order) that `match` accepts, or nullptr.
const plan::Expr* find_node(const plan::Expr& expr,
                            const std::function<bool(const plan::Expr&)>& match) {
  if (match(expr)) return &expr;
  for (const plan::ExprPtr& child : expr.children)
    if (const plan::Expr* found = find_node(*child, match)) return found;
  return nullptr;
}

void reject_subqueries(const plan::Expr& expr, const std::string& where) {
  if (const plan::Expr* subquery =
          find_node(expr, [](const plan::Expr& e) { return plan::is_subquery(e.kind); }))
    throw Error("cannot use subquery in " + where, subquery->position);
}

std::string row_text(const std::vector<Value>& row) {
  std::string text;
  for (const Value& value : row)
    text += (text.empty() ? "" : ", ") + (value.is_null() ? "null" : value.to_string());
  return text;
}

}  // namespace

bool assignable(const SqlType& source, const SqlType& target) {
  if (source.id == TypeId::kUnknown) return true;
  // Strings and booleans reach other types only through explicit casts.
  if (source.is_string() && !target.is_string()) return false;
  if ((source.id == TypeId::kBoolean) != (target.id == TypeId::kBoolean) && !target.is_string())
    return false;
  return sql::can_cast(source, target);
}

plan::ExprPtr bind_default(const sql::Node* expression, const std::vector<ColumnDef>& columns,
                           size_t column, const Catalog& catalog) {
  plan::ColumnRegistry registry;
  sql::BindContext context{catalog, registry};
  sql::BindScope scope = table_scope("", columns, registry);
  plan::ExprPtr expr =
      sql::ExpressionBinder(context, scope, "DEFAULT expressions").bind(expression);
  if (const plan::Expr* reference =
          find_node(*expr, [](const plan::Expr& e) { return e.kind == plan::ExprKind::kColumn; }))
    throw Error("cannot use column reference in DEFAULT expression", reference->position);
  reject_subqueries(*expr, "DEFAULT expression");
  const ColumnDef& target = columns[column];
  if (!assignable(expr->type, target.type))
    throw Error("column \"" + target.name + "\" is of type " + target.type.to_string() +
                    " but default expression is of type " + expr->type.to_string() +
                    "\nHINT:  You will need to rewrite or cast the expression.",
                expr->position);
  // A string literal that cannot become the column's type is an error now, as in PostgreSQL
  // (which reads it with the type's input function); other casts fail on insert.
  if (expr->kind == plan::ExprKind::kConstant && !target.type.is_string() &&
      (expr->type.id == TypeId::kUnknown || expr->type.is_string())) {
    try {
      cast_value(expr->constant, target.type);
    } catch (const Error& error) {
      throw Error(error.what(), expr->position);
    }
  }
  return expr;
}

plan::ExprPtr bind_check(const sql::Node* expression, const std::string& table_name,
                         const std::vector<ColumnDef>& columns, const Catalog& catalog,
                         plan::ColumnRegistry& registry) {
  sql::BindContext context{catalog, registry};
  sql::BindScope scope = table_scope(table_name, columns, registry);
  plan::ExprPtr expr = sql::ExpressionBinder(context, scope, "check constraints")
                           .bind_condition(expression, "CHECK");
  reject_subqueries(*expr, "check constraint");
  return expr;
}

Value evaluate_row_expression(const plan::Expr& expression, const std::vector<Value>& row) {
  plan::ExprPtr bound = expression.clone();
  plan::transform_expr(bound, [&](plan::ExprPtr& node) {
    if (node->kind == plan::ExprKind::kColumn) node = plan::make_constant(row[node->column]);
  });
  return vectorized::evaluate_scalar(*bound);
}

RowConstraints::RowConstraints(const std::string& name, const std::vector<ColumnDef>& columns,
                               const TableConstraints& constraints, const Catalog& catalog)
    : name_(name), columns_(columns), constraints_(constraints) {
  for (size_t c = 0; c < columns.size(); ++c) {
    const std::string& text = constraints.defaults[c].expression;
    defaults_.push_back(
        text.empty() ? nullptr
                     : bind_default(sql::ParsedExpression(text).node(), columns, c, catalog));
  }
  for (const CheckConstraint& check : constraints.checks) {
    plan::ColumnRegistry registry;
    checks_.push_back(bind_check(sql::ParsedExpression(check.expression).node(), name, columns,
                                 catalog, registry));
  }
}

Value RowConstraints::default_value(size_t column) const {
  const SqlType& type = columns_[column].type;
  if (!defaults_[column]) return Value::null(type);
  return cast_value(evaluate_row_expression(*defaults_[column], {}), type);
}

bool RowConstraints::check_fails(size_t check, const std::vector<Value>& row) const {
  Value result = evaluate_row_expression(*checks_[check], row);
  return !result.is_null() && !result.as_bool();
}

void RowConstraints::check_row(const std::vector<Value>& row) const {
  for (size_t c = 0; c < row.size(); ++c)
    if (row[c].is_null() && !columns_[c].nullable)
      throw Error("null value in column \"" + columns_[c].name + "\" of relation \"" + name_ +
                  "\" violates not-null constraint\nDETAIL:  Failing row contains (" +
                  row_text(row) + ").");
  for (size_t i = 0; i < checks_.size(); ++i)
    if (check_fails(i, row))
      throw Error("new row for relation \"" + name_ + "\" violates check constraint \"" +
                  constraints_.checks[i].name + "\"\nDETAIL:  Failing row contains (" +
                  row_text(row) + ").");
}

void RowConstraints::check_existing_row(const std::vector<Value>& row, size_t first_check) const {
  for (size_t c = 0; c < row.size(); ++c)
    if (row[c].is_null() && !columns_[c].nullable)
      throw Error("column \"" + columns_[c].name + "\" of relation \"" + name_ +
                  "\" contains null values");
  for (size_t i = first_check; i < checks_.size(); ++i)
    if (check_fails(i, row))
      throw Error("check constraint \"" + constraints_.checks[i].name + "\" of relation \"" +
                  name_ + "\" is violated by some row");
}

void RowConstraints::check_foreign_keys(const std::vector<Value>& row, size_t first) const {
  for (size_t k = first; k < constraints_.foreign_keys.size(); ++k)
    check_foreign_key(row, constraints_.foreign_keys[k]);
}

void RowConstraints::check_foreign_key(const std::vector<Value>& row, const ForeignKey& key) const {
  const Table& referenced = *key.referenced;
  std::vector<Value> values;
  for (size_t column : key.columns) values.push_back(row[column]);
  // MATCH SIMPLE: a key with a NULL references nothing.
  if (std::any_of(values.begin(), values.end(), [](const Value& v) { return v.is_null(); })) return;
  const UniqueIndex& index = referenced_index(key);
  std::optional<std::string> bytes = referenced_key(key, index, values);
  // A deleted row keeps its index entry until an insert takes its key: it is no referent.
  std::optional<uint64_t> holder = bytes ? index.find(*bytes) : std::nullopt;
  if (holder && !referenced.row_deleted(*holder)) return;
  std::string columns, shown;
  for (size_t i = 0; i < key.columns.size(); ++i) {
    columns += (i ? ", " : "") + quote_identifier(columns_[key.columns[i]].name);
    shown += (i ? ", " : "") + row[key.columns[i]].to_string();
  }
  throw Error("insert or update on table \"" + name_ + "\" violates foreign key constraint \"" +
              key.name + "\"\nDETAIL:  Key (" + columns + ")=(" + shown +
              ") is not present in table \"" + referenced.name() + "\".");
}

}  // namespace floe
