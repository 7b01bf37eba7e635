// INSERT INTO t [(columns)] VALUES ... | SELECT ...: values are converted to the column types
// with assignment casts, omitted columns are NULL. All or nothing: a failure truncates the
// table back to its row count before the statement.
#include "engine/api/query_runner.h"
#include "engine/api/statement_context.h"
#include "engine/plan/constant_evaluator.h"
#include "engine/sql/expression_binder.h"
#include "engine/sql/select_binder.h"
#include "engine/sql/type_rules.h"
#include "engine/txn/transaction.h"
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

// Builds full table rows from values for `columns`, checking NOT NULL.
class RowBuilder {
 public:
  RowBuilder(const Table& table, std::vector<size_t> columns)
      : table_(table), columns_(std::move(columns)) {}

  std::vector<Value> build(const std::vector<Value>& values,
                           const std::vector<int>& positions) const {
    std::vector<Value> row;
    for (const ColumnDef& column : table_.columns()) row.push_back(Value::null(column.type));
    for (size_t i = 0; i < columns_.size(); ++i) {
      const ColumnDef& column = table_.columns()[columns_[i]];
      try {
        row[columns_[i]] = cast_value(values[i], column.type);
      } catch (const Error& error) {
        throw Error(error.what(), positions.empty() ? -1 : positions[i]);
      }
    }
    for (size_t c = 0; c < row.size(); ++c)
      if (row[c].is_null() && !table_.columns()[c].nullable)
        throw Error("null value in column \"" + table_.columns()[c].name + "\" of relation \"" +
                    table_.name() + "\" violates not-null constraint");
    return row;
  }
  const std::vector<size_t>& columns() const { return columns_; }

 private:
  const Table& table_;
  std::vector<size_t> columns_;
};

std::vector<std::vector<Value>> values_rows(const PgQuery__SelectStmt& select,
                                            const RowBuilder& builder, const Table& table,
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
    std::vector<Value> values;
    std::vector<int> positions;
    for (size_t i = 0; i < list.n_items; ++i) {
      plan::ExprPtr expr = sql::ExpressionBinder(bind_context, scope, "VALUES").bind(list.items[i]);
      check_assignable(expr->type, table.columns()[builder.columns()[i]], expr->position);
      positions.push_back(expr->position);
      try {
        values.push_back(plan::evaluate(*expr));
      } catch (const NotSupported&) {
        throw;
      } catch (const Error& error) {
        throw Error(error.what(), error.position() >= 0 ? error.position() : expr->position);
      }
    }
    rows.push_back(builder.build(values, positions));
  }
  return rows;
}

std::vector<std::vector<Value>> select_rows(const PgQuery__SelectStmt& select,
                                            const RowBuilder& builder, const Table& table,
                                            StatementContext& context, PhaseTimings& timings) {
  plan::LogicalPlan logical = sql::bind_select(select, context.catalog);
  if (logical.outputs.size() > builder.columns().size())
    throw Error("INSERT has more expressions than target columns");
  if (logical.outputs.size() < builder.columns().size())
    throw Error("INSERT has more target columns than expressions");
  for (size_t i = 0; i < logical.outputs.size(); ++i)
    check_assignable(logical.registry[logical.outputs[i].id].type,
                     table.columns()[builder.columns()[i]], -1);
  QueryOutput output = run_plan(std::move(logical), context.options, timings);
  std::vector<std::vector<Value>> rows;
  for (const auto& values : output.rows) rows.push_back(builder.build(values, {}));
  return rows;
}

}  // namespace

void check_assignable(const SqlType& source, const ColumnDef& column, int position) {
  bool ok = source.id == TypeId::kUnknown || sql::can_cast(source, column.type);
  if (source.is_string() && !column.type.is_string()) ok = false;
  if (!ok)
    throw Error("column \"" + column.name + "\" is of type " + column.type.to_string() +
                    " but expression is of type " + source.to_string(),
                position);
}

Result run_insert(const PgQuery__InsertStmt& stmt, StatementContext& context) {
  const PgQuery__RangeVar& relation = *stmt.relation;
  if (stmt.with_clause) throw NotSupported("WITH");
  if (stmt.on_conflict_clause) throw NotSupported("ON CONFLICT");
  if (stmt.n_returning_list) throw NotSupported("RETURNING");
  if (!stmt.select_stmt) throw NotSupported("INSERT ... DEFAULT VALUES", relation.location);
  Table* table = context.catalog.find_table(relation.relname);
  if (!table)
    throw Error("relation \"" + std::string(relation.relname) + "\" does not exist",
                relation.location);
  RowBuilder builder(*table, target_columns(stmt, *table));
  const PgQuery__SelectStmt& select = *stmt.select_stmt->select_stmt;
  PhaseTimings timings;
  auto start = std::chrono::steady_clock::now();
  std::vector<std::vector<Value>> rows =
      select.n_values_lists ? values_rows(select, builder, *table, context)
                            : select_rows(select, builder, *table, context, timings);
  uint64_t old_count = table->row_count();
  try {
    TableAppender appender(*table);
    for (const auto& row : rows) appender.append_row(row);
  } catch (...) {
    table->truncate(old_count);
    throw;
  }
  // INSERT ... SELECT into an empty table is a bulk load.
  if (old_count == 0 && !select.n_values_lists && context.database.freezer().bulk_loads_freeze())
    table->freeze_full_chunks();
  if (context.transaction) context.transaction->record_append(*table, old_count);
  Result result = Result::command("INSERT 0 " + std::to_string(rows.size()), rows.size());
  timings.plan_ms =
      elapsed_ms(start) - timings.codegen_ms - timings.compile_ms - timings.execute_ms;
  result.mutable_timings() = timings;
  return result;
}

}  // namespace floe
