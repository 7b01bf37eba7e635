// Test harness for the pipeline code generator: builds logical plans by hand over tables in a
// Catalog and runs them through execute_compiled at both optimization levels.
#pragma once

#include <string>
#include <vector>

#include "engine/exec/query_executor.h"
#include "engine/plan/physical_plan.h"
#include "storage/catalog.h"

namespace floe::codegen::testing {

class PlanBuilder {
 public:
  // A scan of every column of `table` (ids in table column order).
  std::unique_ptr<plan::ScanOp> scan(const Table& table);
  plan::ColumnId add_column(SqlType type, bool nullable, std::string name);
  // A kColumn expression typed as the registry says.
  plan::ExprPtr ref(plan::ColumnId id) const;
  void output(plan::ColumnId id) { plan_.outputs.push_back({id, plan_.registry[id].name}); }
  plan::PhysicalPlan finish(plan::LogicalOpPtr root);

 private:
  plan::LogicalPlan plan_;
};

// Runs the plan at both optimization levels, expects identical results, and returns the rows
// as "v1|v2|..." text (Value::to_string, NULL as "NULL").
std::vector<std::string> run(const plan::PhysicalPlan& plan);
// The same, sorted (for operators whose output order is unspecified).
std::vector<std::string> run_sorted(const plan::PhysicalPlan& plan);

// A table built from rows of Values.
Table& make_table(Catalog& catalog, const std::string& name, std::vector<ColumnDef> columns,
                  const std::vector<std::vector<Value>>& rows);

template <typename Op>
plan::LogicalOpPtr over(std::unique_ptr<Op> op, plan::LogicalOpPtr child) {
  op->children.push_back(std::move(child));
  return op;
}

// Values of the join tests' tables: integer ids (possibly NULL) and varchar names.
inline Value id(int32_t value) {
  return Value::integer(value);
}
inline Value no_id() {
  return Value::null(SqlType::integer());
}
inline Value str(const std::string& value) {
  return Value::string(value, SqlType::varchar(0));
}

}  // namespace floe::codegen::testing
