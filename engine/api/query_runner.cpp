#include "engine/api/query_runner.h"

#include "engine/api/recursive_query.h"
#include "engine/plan/expression_utils.h"
#include "engine/plan/logical_walk.h"
#include "engine/plan/optimizer.h"
#include "engine/plan/subquery_unnesting.h"
#include "storage/error.h"

namespace floe {

namespace {

// Runs one uncorrelated scalar subquery: at most one row; NULL when it has none.
Value evaluate_subquery(const plan::Expr& expr, const plan::ColumnRegistry& registry,
                        const ExecutionOptions& options, PhaseTimings& timings) {
  plan::LogicalPlan subquery;
  subquery.root = plan::clone_tree(*expr.subquery);
  subquery.registry = registry;
  subquery.outputs.push_back({expr.column, registry[expr.column].name});
  PhaseTimings inner;
  QueryOutput output = run_plan(std::move(subquery), options, inner);
  timings.plan_ms += inner.plan_ms + inner.codegen_ms + inner.compile_ms + inner.execute_ms;
  if (output.rows.size() > 1)
    throw Error("more than one row returned by a subquery used as an expression", expr.position);
  if (output.rows.empty()) return Value::null(expr.type);
  return cast_value(output.rows[0][0], expr.type);
}

void substitute_subqueries(plan::LogicalPlan& logical, const ExecutionOptions& options,
                           PhaseTimings& timings) {
  plan::for_each_expression_in_tree(*logical.root, [&](plan::ExprPtr& root) {
    plan::transform_expr(root, [&](plan::ExprPtr& expr) {
      if (expr->kind != plan::ExprKind::kScalarSubquery) return;
      int position = expr->position;
      expr = plan::make_constant(evaluate_subquery(*expr, logical.registry, options, timings));
      expr->position = position;
    });
  });
}

}  // namespace

double elapsed_ms(std::chrono::steady_clock::time_point start) {
  return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start)
      .count();
}

plan::PhysicalPlan prepare_plan(plan::LogicalPlan logical, const ExecutionOptions& options,
                                PhaseTimings& timings) {
  auto start = std::chrono::steady_clock::now();
  run_recursive_queries(logical, options, timings);
  plan::unnest_subqueries(logical);
  substitute_subqueries(logical, options, timings);
  plan::optimize(logical, options.index_join);
  plan::PhysicalPlan physical = plan::make_physical_plan(std::move(logical), options.join_table,
                                                           options.compaction);
  timings.plan_ms += elapsed_ms(start);
  return physical;
}

QueryOutput run_plan(plan::LogicalPlan logical, const ExecutionOptions& options,
                     PhaseTimings& timings) {
  plan::PhysicalPlan physical = prepare_plan(std::move(logical), options, timings);
  QueryOutput output = execute_plan(physical, options);
  timings.codegen_ms += output.codegen_ms;
  timings.compile_ms += output.compile_ms;
  timings.execute_ms += output.execute_ms;
  return output;
}

}  // namespace floe
