#include "engine/api/recursive_query.h"

#include <memory>
#include <string>
#include <set>
#include <vector>

#include "engine/api/query_runner.h"
#include "engine/exec/vectorized_executor.h"
#include "engine/plan/expression_utils.h"
#include "engine/plan/logical_walk.h"
#include "runtime/cancellation.h"

namespace floe {

namespace {

using Rows = std::vector<std::vector<Value>>;

plan::LogicalPlan make_term(const plan::LogicalOp& root, const std::vector<plan::ColumnId>& columns,
                            const plan::ColumnRegistry& registry) {
  plan::LogicalPlan term;
  term.root = plan::clone_tree(root);
  term.registry = registry;
  for (plan::ColumnId id : columns) term.outputs.push_back({id, registry[id].name});
  return term;
}

Rows run_term(const plan::LogicalOp& root, const std::vector<plan::ColumnId>& columns,
              const plan::ColumnRegistry& registry, const ExecutionOptions& options,
              PhaseTimings& timings) {
  PhaseTimings inner;
  QueryOutput output = run_plan(make_term(root, columns, registry), options, inner);
  timings.plan_ms += inner.plan_ms + inner.codegen_ms + inner.compile_ms + inner.execute_ms;
  return std::move(output.rows);
}

bool has_scalar_subquery(plan::LogicalOp& root) {
  bool found = false;
  plan::for_each_expression_in_tree(root, [&](plan::ExprPtr& expr) {
    plan::transform_expr(
        expr, [&](plan::ExprPtr& node) { found |= node->kind == plan::ExprKind::kScalarSubquery; });
  });
  return found;
}

// The recursive term: planned and compiled once, on its first run, and run again over the
// working table of each iteration. A term with scalar subqueries is planned anew each time:
// they run before the plan and become constants, which must come from the current working
// table.
class RecursiveTerm {
 public:
  RecursiveTerm(const plan::RecursiveQuery& query, const plan::ColumnRegistry& registry,
                const ExecutionOptions& options, PhaseTimings& timings)
      : query_(query), registry_(registry), options_(options), timings_(timings) {}

  Rows run() {
    // The vectorized engine has nothing to prepare: it runs the plan anew each time. So does
    // adaptive execution, on the vectorized engine: compiling in the background anew for
    // every iteration would only take the workers' cores.
    const bool compile = options_.execution_mode == ExecutionMode::kCompiled;
    if (!replan_ && !physical_) {
      plan::LogicalPlan term = make_term(*query_.recursive, query_.recursive_columns, registry_);
      replan_ = has_scalar_subquery(*term.root);
      if (!replan_) {
        physical_ =
            std::make_unique<plan::PhysicalPlan>(prepare_plan(std::move(term), options_, timings_));
        if (compile) compiled_ = std::make_unique<CompiledQuery>(*physical_, options_);
      }
    }
    if (replan_)
      return run_term(*query_.recursive, query_.recursive_columns, registry_, options_, timings_);
    QueryOutput output = compile ? compiled_->run() : execute_vectorized(*physical_, options_);
    timings_.plan_ms += output.execute_ms;
    if (!compile_counted_) timings_.plan_ms += output.codegen_ms + output.compile_ms;
    compile_counted_ = true;
    return std::move(output.rows);
  }

 private:
  const plan::RecursiveQuery& query_;
  const plan::ColumnRegistry& registry_;
  const ExecutionOptions& options_;
  PhaseTimings& timings_;
  bool replan_ = false;
  bool compile_counted_ = false;
  std::unique_ptr<plan::PhysicalPlan> physical_;
  std::unique_ptr<CompiledQuery> compiled_;
};

// UNION's equality of rows: the values' SQL equality (compare_values, storage's
// one ordering of values: '24 hours' = '1 day', -0.0 = 0.0), and NULLs equal each other.
struct RowLess {
  bool operator()(const std::vector<Value>& a, const std::vector<Value>& b) const {
    for (size_t i = 0; i < a.size(); ++i) {
      if (a[i].is_null() || b[i].is_null()) {
        if (a[i].is_null() != b[i].is_null()) return a[i].is_null();
        continue;
      }
      if (int order = compare_values(a[i], b[i])) return order < 0;
    }
    return false;
  }
};

void append(Table& table, const Rows& rows) {
  TableAppender appender(table);
  for (const auto& row : rows) appender.append_row(row);
}

}  // namespace

void run_recursive_queries(const plan::LogicalPlan& logical, const ExecutionOptions& options,
                           PhaseTimings& timings) {
  for (const auto& query : logical.recursive_queries) {
    query->working->truncate(0);
    query->result->truncate(0);
    std::set<std::vector<Value>, RowLess> seen;
    auto new_rows = [&](Rows rows) {
      if (!query->distinct) return rows;
      Rows kept;
      for (auto& row : rows)
        if (seen.insert(row).second) kept.push_back(std::move(row));
      return kept;
    };
    Rows rows = new_rows(
        run_term(*query->initial, query->initial_columns, logical.registry, options, timings));
    RecursiveTerm recursive(*query, logical.registry, options, timings);
    while (!rows.empty()) {
      throw_if_canceled(options.cancel);
      append(*query->result, rows);
      query->working->truncate(0);
      append(*query->working, rows);
      rows = new_rows(recursive.run());
    }
  }
}

}  // namespace floe
