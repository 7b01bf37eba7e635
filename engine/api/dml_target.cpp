#include "engine/api/dml_target.h"

#include <algorithm>
#include <numeric>

#include "engine/api/compiled_plan.h"
#include "engine/api/query_runner.h"
#include "engine/sql/select_binder.h"
#include "engine/sql/statement_parameters.h"
#include "storage/error.h"

namespace floe {

namespace {

// The scan of the target relation in the query's operator tree (not in its subqueries).
plan::ScanOp* find_target_scan(plan::LogicalOp& op, const Table& table, const std::string& alias) {
  if (op.kind == plan::LogicalKind::kScan) {
    auto& scan = static_cast<plan::ScanOp&>(op);
    if (scan.table == &table && scan.alias == alias) return &scan;
  }
  for (auto& child : op.children)
    if (plan::ScanOp* scan = find_target_scan(*child, table, alias)) return scan;
  return nullptr;
}

bool has_aggregation(const plan::LogicalOp& op) {
  if (op.kind == plan::LogicalKind::kAggregate || op.kind == plan::LogicalKind::kWindow)
    return true;
  return std::any_of(op.children.begin(), op.children.end(),
                     [](const auto& child) { return has_aggregation(*child); });
}

// PostgreSQL types a parameter assigned to a column as that column (UPDATE ... SET c = $1):
// bound as a slot for many runs, it would otherwise become text.
void type_assigned_parameters(PgQuery__Node* const* targets, size_t count, const Table& table) {
  sql::StatementParameters* parameters = sql::StatementParameters::current();
  if (!parameters) return;
  for (size_t i = 0; i < count; ++i) {
    const PgQuery__ResTarget& target = *targets[i]->res_target;
    if (!target.val || target.val->node_case != PG_QUERY__NODE__NODE_PARAM_REF) continue;
    auto column = table.find_column(target.name);
    const int number = target.val->param_ref->number;
    if (column && number >= 1)
      parameters->deduce(static_cast<uint32_t>(number - 1), table.columns()[*column].type);
  }
}

}  // namespace

Result dml_result(ReturningList& returning, const std::string& command, size_t rows,
                  PhaseTimings timings, std::chrono::steady_clock::time_point start) {
  Result result = returning.result(command + " " + std::to_string(rows), rows);
  timings.plan_ms =
      elapsed_ms(start) - timings.codegen_ms - timings.compile_ms - timings.execute_ms;
  result.mutable_timings() = timings;
  return result;
}

std::vector<uint32_t> set_columns(PgQuery__Node* const* targets, size_t count, const Table& table) {
  std::vector<uint32_t> columns;
  for (size_t i = 0; i < count; ++i) {
    const PgQuery__Node& node = *targets[i];
    if (node.node_case != PG_QUERY__NODE__NODE_RES_TARGET) throw NotSupported("this SET item");
    const PgQuery__ResTarget& target = *node.res_target;
    if (target.n_indirection) throw NotSupported("assignment to parts of columns", target.location);
    if (target.val && target.val->node_case == PG_QUERY__NODE__NODE_MULTI_ASSIGN_REF)
      throw NotSupported("multiple-column assignment (SET (a, b) = ...)", target.location);
    if (target.val && target.val->node_case == PG_QUERY__NODE__NODE_SET_TO_DEFAULT)
      throw NotSupported("SET ... = DEFAULT", target.location);
    auto column = table.find_column(target.name);
    if (!column)
      throw Error("column \"" + std::string(target.name) + "\" of relation \"" + table.name() +
                      "\" does not exist",
                  target.location);
    if (std::find(columns.begin(), columns.end(), *column) != columns.end())
      throw Error("multiple assignments to same column \"" + std::string(target.name) + "\"",
                  target.location);
    columns.push_back(static_cast<uint32_t>(*column));
  }
  return columns;
}

std::string target_alias(const PgQuery__RangeVar& relation) {
  return relation.alias ? relation.alias->aliasname : relation.relname;
}

Table& target_table(const PgQuery__RangeVar& relation, const Catalog& catalog) {
  Table* table = catalog.find_table(relation.relname);
  if (!table)
    throw Error("relation \"" + std::string(relation.relname) + "\" does not exist",
                relation.location);
  return *table;
}

DmlTargetRows find_target_rows(Table& table, const PgQuery__RangeVar& relation,
                               PgQuery__Node* const* from, size_t from_count, PgQuery__Node* where,
                               PgQuery__Node* const* targets, size_t target_count,
                               StatementContext& context, PhaseTimings& timings) {
  PgQuery__Node target_node = PG_QUERY__NODE__INIT;
  target_node.node_case = PG_QUERY__NODE__NODE_RANGE_VAR;
  target_node.range_var = const_cast<PgQuery__RangeVar*>(&relation);
  std::vector<PgQuery__Node*> from_list{&target_node};
  from_list.insert(from_list.end(), from, from + from_count);

  PgQuery__SelectStmt select = PG_QUERY__SELECT_STMT__INIT;
  select.op = PG_QUERY__SET_OPERATION__SETOP_NONE;
  select.limit_option = PG_QUERY__LIMIT_OPTION__LIMIT_OPTION_DEFAULT;
  select.n_from_clause = from_list.size();
  select.from_clause = from_list.data();
  select.where_clause = where;
  select.n_target_list = target_count;
  select.target_list = const_cast<PgQuery__Node**>(targets);

  QueryOutput output = run_statement_query(
      [&] {
        type_assigned_parameters(targets, target_count, table);
        plan::LogicalPlan logical = sql::bind_select(select, context.catalog);
        if (has_aggregation(*logical.root))
          throw Error("aggregate functions are not allowed in UPDATE");
        const std::string alias = target_alias(relation);
        plan::ScanOp* scan = find_target_scan(*logical.root, table, alias);
        if (!scan) throw Error("internal error: no scan of the target relation \"" + alias + "\"");
        const plan::ColumnId row_id = logical.registry.add({SqlType::big_int(), false, "ctid"});
        scan->columns.push_back({kRowIdColumn, row_id});
        logical.outputs.insert(logical.outputs.begin(), {row_id, "ctid"});
        return logical;
      },
      context, timings);
  // Row-id order, each row once (the first of its values).
  std::vector<size_t> order(output.rows.size());
  std::iota(order.begin(), order.end(), size_t{0});
  auto id = [&](size_t i) { return static_cast<uint64_t>(output.rows[i][0].as_int64()); };
  std::stable_sort(order.begin(), order.end(), [&](size_t a, size_t b) { return id(a) < id(b); });
  DmlTargetRows rows;
  rows.types.assign(output.column_types.begin() + 1, output.column_types.end());
  for (size_t i : order) {
    if (!rows.row_ids.empty() && rows.row_ids.back() == id(i)) continue;
    rows.row_ids.push_back(id(i));
    std::vector<Value>& values = output.rows[i];
    rows.values.emplace_back(std::make_move_iterator(values.begin() + 1),
                             std::make_move_iterator(values.end()));
  }
  return rows;
}

}  // namespace floe
