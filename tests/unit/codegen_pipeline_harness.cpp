#include "tests/unit/codegen_pipeline_harness.h"

#include <gtest/gtest.h>

#include <algorithm>

#include "storage/table.h"

namespace floe::codegen::testing {

std::unique_ptr<plan::ScanOp> PlanBuilder::scan(const Table& table) {
  auto scan = std::make_unique<plan::ScanOp>();
  scan->table = &table;
  scan->alias = table.name();
  for (size_t c = 0; c < table.columns().size(); ++c) {
    const auto& def = table.columns()[c];
    scan->columns.push_back({c, add_column(def.type, def.nullable, def.name)});
  }
  return scan;
}

plan::ColumnId PlanBuilder::add_column(SqlType type, bool nullable, std::string name) {
  return plan_.registry.add({type, nullable, std::move(name)});
}

plan::ExprPtr PlanBuilder::ref(plan::ColumnId id) const {
  return plan::make_column(id, plan_.registry[id].type, plan_.registry[id].nullable);
}

plan::PhysicalPlan PlanBuilder::finish(plan::LogicalOpPtr root) {
  plan_.root = std::move(root);
  return plan::make_physical_plan(std::move(plan_));
}

namespace {

std::vector<std::string> run_at(const plan::PhysicalPlan& plan, OptimizationLevel level) {
  ExecutionOptions options;
  options.optimization = level;
  // One worker keeps the scan order these tests expect; exec_parallel_test covers several.
  options.threads = 1;
  QueryOutput output = execute_compiled(plan, options);
  std::vector<std::string> rows;
  for (const auto& row : output.rows) {
    std::string text;
    for (size_t c = 0; c < row.size(); ++c) text += (c ? "|" : "") + row[c].to_string();
    rows.push_back(std::move(text));
  }
  return rows;
}

}  // namespace

std::vector<std::string> run(const plan::PhysicalPlan& plan) {
  auto fast = run_at(plan, OptimizationLevel::kFast);
  auto optimized = run_at(plan, OptimizationLevel::kOptimized);
  EXPECT_EQ(fast, optimized) << "optimization levels disagree";
  return fast;
}

std::vector<std::string> run_sorted(const plan::PhysicalPlan& plan) {
  auto rows = run(plan);
  std::sort(rows.begin(), rows.end());
  return rows;
}

Table& make_table(Catalog& catalog, const std::string& name, std::vector<ColumnDef> columns,
                  const std::vector<std::vector<Value>>& rows) {
  Table& table = catalog.create_table(name, std::move(columns), {});
  TableAppender appender(table);
  for (const auto& row : rows) appender.append_row(row);
  return table;
}

}  // namespace floe::codegen::testing
