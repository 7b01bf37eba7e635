// INSERT INTO t [(columns)] [OVERRIDING ...] VALUES ... | SELECT ... | DEFAULT VALUES: values
// are converted to the column types with assignment casts; omitted columns and the DEFAULT
// keyword take the column's default (engine/api/row_constraints.h). All or nothing: a failure
// truncates the table back to its row count before the statement (RowChanges::insert_rows).
#include "engine/api/compiled_plan.h"
#include "engine/api/dml_target.h"
#include "engine/api/insert_conflict.h"
#include "engine/api/query_runner.h"
#include "engine/api/returning.h"
#include "engine/api/row_changes.h"
#include "engine/api/row_constraints.h"
#include "engine/api/statement_context.h"
#include "engine/sql/expression_binder.h"
#include "engine/sql/select_binder.h"
#include "engine/sql/type_rules.h"
#include "engine/vector/expression_executor.h"
#include "storage/error.h"

namespace floe {

namespace {

std::vector<size_t> target_columns(const PgQuery__InsertStmt& stmt, const Table& table) {
  std::vector<size_t> columns;
  if (stmt.n_cols == 0) {
    for (size_t i = 0; i < table.columns().size(); ++i) columns.push_back(i);
    return columns;
  }
  for (size_t i = 0; i < stmt.n_cols; ++i) {
    const PgQuery__ResTarget& target = *stmt.cols[i]->res_target;
    if (target.n_indirection) throw NotSupported("assignment to parts of columns", target.location);
    auto index = table.find_column(target.name);
    if (!index)
      throw Error("column \"" + std::string(target.name) + "\" of relation \"" + table.name() +
                      "\" does not exist",
                  target.location);
    if (std::find(columns.begin(), columns.end(), *index) != columns.end())
      throw Error("column \"" + std::string(target.name) + "\" specified more than once",
                  target.location);
    columns.push_back(*index);
  }
  return columns;
}

// PostgreSQL's error for a value given to a GENERATED ALWAYS identity column.
void check_identity(const Table& table, size_t column, PgQuery__OverridingKind overriding) {
  if (table.constraints().defaults[column].identity != IdentityKind::kAlways ||
      overriding != PG_QUERY__OVERRIDING_KIND__OVERRIDING_NOT_SET)
    return;
  const std::string& name = table.columns()[column].name;
  throw Error("cannot insert a non-DEFAULT value into column \"" + name + "\"\nDETAIL:  Column \"" +
              name + "\" is an identity column defined as GENERATED ALWAYS.\nHINT:  Use " +
              "OVERRIDING SYSTEM VALUE to override.");
}

// Builds full table rows from values for `columns`: the other columns take their defaults,
// and the row must satisfy NOT NULL and the CHECK constraints.
class RowBuilder {
 public:
  RowBuilder(const Table& table, std::vector<size_t> columns, const RowConstraints& constraints,
             PgQuery__OverridingKind overriding)
      : table_(table), columns_(std::move(columns)), constraints_(constraints) {
    given_.assign(table.columns().size(), false);
    for (size_t column : columns_)
      // OVERRIDING USER VALUE: identity columns take their default whatever is given.
      given_[column] = overriding != PG_QUERY__OVERRIDING_KIND__OVERRIDING_USER_VALUE ||
                       table.constraints().defaults[column].identity == IdentityKind::kNone;
  }

  // values[i] for columns()[i]; nullopt for the DEFAULT keyword.
  std::vector<Value> build(const std::vector<std::optional<Value>>& values,
                           const std::vector<int>& positions) const {
    std::vector<Value> row(table_.columns().size());
    std::vector<bool> set(row.size(), false);
    for (size_t i = 0; i < columns_.size(); ++i) {
      const size_t column = columns_[i];
      if (!values[i] || !given_[column]) continue;
      try {
        row[column] = cast_value(*values[i], table_.columns()[column].type);
      } catch (const Error& error) {
        throw Error(error.what(), positions.empty() ? -1 : positions[i]);
      }
      set[column] = true;
    }
    for (size_t c = 0; c < row.size(); ++c)
      if (!set[c]) row[c] = constraints_.default_value(c);
    constraints_.check_row(row);
    return row;
  }
  const std::vector<size_t>& columns() const { return columns_; }

 private:
  const Table& table_;
  std::vector<size_t> columns_;
  const RowConstraints& constraints_;
  std::vector<bool> given_;  // per table column: a value given for it counts
};

std::vector<std::vector<Value>> values_rows(const PgQuery__SelectStmt& select,
                                            const RowBuilder& builder, const Table& table,
                                            PgQuery__OverridingKind overriding,
                                            StatementContext& context) {
  plan::ColumnRegistry registry;
  sql::BindContext bind_context{context.catalog, registry};
  sql::BindScope scope;
  std::vector<std::vector<Value>> rows;
  for (size_t r = 0; r < select.n_values_lists; ++r) {
    const PgQuery__List& list = *select.values_lists[r]->list;
    if (list.n_items > builder.columns().size())
      throw Error("INSERT has more expressions than target columns",
                  sql::node_location(list.items[builder.columns().size()]));
    if (list.n_items < builder.columns().size())
      throw Error("INSERT has more target columns than expressions",
                  sql::node_location(list.items[0]));
    std::vector<std::optional<Value>> values;
    std::vector<int> positions;
    for (size_t i = 0; i < list.n_items; ++i) {
      const size_t column = builder.columns()[i];
      if (list.items[i]->node_case == PG_QUERY__NODE__NODE_SET_TO_DEFAULT) {
        values.push_back(std::nullopt);
        positions.push_back(-1);
        continue;
      }
      check_identity(table, column, overriding);
      plan::ExprPtr expr = sql::ExpressionBinder(bind_context, scope, "VALUES").bind(list.items[i]);
      check_assignable(expr->type, table.columns()[column], expr->position);
      positions.push_back(expr->position);
      values.push_back(vectorized::evaluate_scalar_at(*expr));
    }
    rows.push_back(builder.build(values, positions));
  }
  return rows;
}

std::vector<std::vector<Value>> select_rows(const PgQuery__SelectStmt& select,
                                            const RowBuilder& builder, const Table& table,
                                            PgQuery__OverridingKind overriding,
                                            StatementContext& context, PhaseTimings& timings) {
  for (size_t column : builder.columns()) check_identity(table, column, overriding);
  QueryOutput output = run_statement_query(
      [&] {
        plan::LogicalPlan logical = sql::bind_select(select, context.catalog);
        if (logical.outputs.size() > builder.columns().size())
          throw Error("INSERT has more expressions than target columns");
        if (logical.outputs.size() < builder.columns().size())
          throw Error("INSERT has more target columns than expressions");
        for (size_t i = 0; i < logical.outputs.size(); ++i)
          check_assignable(logical.registry[logical.outputs[i].id].type,
                           table.columns()[builder.columns()[i]], -1);
        return logical;
      },
      context, timings);
  std::vector<std::vector<Value>> rows;
  for (const auto& values : output.rows)
    rows.push_back(builder.build({values.begin(), values.end()}, {}));
  return rows;
}

}  // namespace

void check_assignable(const SqlType& source, const ColumnDef& column, int position) {
  if (!assignable(source, column.type))
    throw Error("column \"" + column.name + "\" is of type " + column.type.to_string() +
                    " but expression is of type " + source.to_string(),
                position);
}

Result run_insert(const PgQuery__InsertStmt& stmt, StatementContext& context) {
  const PgQuery__RangeVar& relation = *stmt.relation;
  if (stmt.with_clause) throw NotSupported("WITH");
  Table* table = context.catalog.find_table(relation.relname);
  if (!table)
    throw Error("relation \"" + std::string(relation.relname) + "\" does not exist",
                relation.location);
  std::optional<ConflictHandler> conflicts;
  if (stmt.on_conflict_clause)
    conflicts.emplace(*stmt.on_conflict_clause, *table, target_alias(relation), context);
  ReturningList returning(stmt.returning_list, stmt.n_returning_list, *table,
                          target_alias(relation), context.catalog);
  const RowConstraints constraints(*table, context.catalog);
  RowBuilder builder(*table,
                     stmt.select_stmt ? target_columns(stmt, *table) : std::vector<size_t>{},
                     constraints, stmt.override);
  PhaseTimings timings;
  auto start = std::chrono::steady_clock::now();
  std::vector<std::vector<Value>> rows;
  const PgQuery__SelectStmt* select = stmt.select_stmt ? stmt.select_stmt->select_stmt : nullptr;
  if (!select)  // DEFAULT VALUES
    rows.push_back(builder.build({}, {}));
  else if (select->n_values_lists)
    rows = values_rows(*select, builder, *table, stmt.override, context);
  else
    rows = select_rows(*select, builder, *table, stmt.override, context, timings);
  uint64_t old_count = table->row_count();
  size_t affected = rows.size();
  if (conflicts) {
    // Row by row; each change is in the transaction's undo buffer at once.
    affected = 0;
    for (const auto& row : rows) {
      std::optional<std::vector<Value>> done = conflicts->insert(row);
      if (!done) continue;
      ++affected;
      returning.add(*done);
    }
    for (const auto& row : conflicts->inserted()) constraints.check_foreign_keys(row);
  } else {
    // INSERT ... SELECT into an empty table is a bulk load.
    const bool bulk_load = old_count == 0 && select && !select->n_values_lists &&
                           context.database.freezer().bulk_loads_freeze();
    RowChanges(context).insert_rows(*table, rows, constraints, bulk_load);
    for (const auto& row : rows) returning.add(row);
  }
  Result result = returning.result("INSERT 0 " + std::to_string(affected), affected);
  timings.plan_ms =
      elapsed_ms(start) - timings.codegen_ms - timings.compile_ms - timings.execute_ms;
  result.mutable_timings() = timings;
  return result;
}

}  // namespace floe
