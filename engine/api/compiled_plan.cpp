#include "engine/api/compiled_plan.h"

#include "engine/api/query_runner.h"
#include "engine/plan/expression_utils.h"
#include "engine/plan/logical_walk.h"
#include "engine/sql/statement_parameters.h"

namespace floe {

bool plans_with_data(plan::LogicalPlan& logical) {
  if (!logical.recursive_queries.empty()) return true;
  bool subquery = false;
  plan::for_each_expression_in_tree(*logical.root, [&](plan::ExprPtr& root) {
    plan::transform_expr(
        root, [&](plan::ExprPtr& expr) { subquery = subquery || plan::is_subquery(expr->kind); });
  });
  return subquery;
}

CompiledPlan::CompiledPlan(plan::LogicalPlan logical, const ExecutionOptions& options) {
  PhaseTimings timings;
  plan = prepare_plan(std::move(logical), options, timings);
  query = std::make_unique<CompiledQuery>(plan, options);
}

CompiledPlan::~CompiledPlan() = default;

std::vector<SqlType> CompiledPlan::result_types() const {
  std::vector<SqlType> types;
  for (const auto& column : plan.logical.outputs)
    types.push_back(plan.logical.registry[column.id].type);
  return types;
}

StatementQueryCache::StatementQueryCache() = default;
StatementQueryCache::~StatementQueryCache() = default;

QueryOutput StatementQueryCache::run(const std::function<plan::LogicalPlan()>& bind,
                                     StatementContext& context, PhaseTimings& timings) {
  const sql::StatementParameters& current = *sql::StatementParameters::current();
  const std::vector<Value>& values = current.values();
  std::vector<SqlType> key = current.types();
  key.resize(values.size(), SqlType::unknown());
  for (size_t i = 0; i < key.size(); ++i)
    if (key[i].id == TypeId::kUnknown) key[i] = values[i].type();
  bool compiled_now = false;
  if (key != key_) {
    // (Nothing changes until the binding and compilation succeeded.)
    sql::StatementParameters slots(key);
    plan::LogicalPlan logical;
    {
      sql::StatementParameters::Scope scope(slots);
      logical = bind();
    }
    std::vector<SqlType> types = slots.types();
    types.resize(key.size(), SqlType::unknown());
    // A parameter the query uses without a type (INSERT ... SELECT $1) stays a constant.
    bool with_data = plans_with_data(logical);
    for (size_t i = 0; i < types.size(); ++i) {
      if (!slots.used(static_cast<uint32_t>(i)))
        types[i] = SqlType::unknown();
      else if (types[i].id == TypeId::kUnknown)
        with_data = true;
    }
    std::unique_ptr<CompiledPlan> compiled;
    if (!with_data) compiled = std::make_unique<CompiledPlan>(std::move(logical), context.options);
    compiled_ = std::move(compiled);
    compiled_now = compiled_ != nullptr;
    plans_with_data_ = with_data;
    types_ = std::move(types);
    key_ = std::move(key);
  }
  if (plans_with_data_) return run_plan(bind(), context.options, timings);
  // Untyped values (EXECUTE p('1') of an undeclared parameter) take the deduced types.
  std::vector<Value> arguments = values;
  for (size_t i = 0; i < arguments.size(); ++i) {
    const SqlType& type = types_[i];
    if (type.id == TypeId::kUnknown || arguments[i].type() == type) continue;
    arguments[i] = arguments[i].is_null() ? Value::null(type) : cast_value(arguments[i], type);
  }
  QueryOutput output = compiled_->query->run_prepared(context.options, arguments);
  timings.execute_ms += output.execute_ms;
  if (compiled_now) {  // (the output reports the compilation at every run)
    timings.codegen_ms += output.codegen_ms;
    timings.compile_ms += output.compile_ms;
  }
  return output;
}

QueryOutput run_statement_query(const std::function<plan::LogicalPlan()>& bind,
                                StatementContext& context, PhaseTimings& timings) {
  if (context.query_cache && sql::StatementParameters::current())
    return context.query_cache->run(bind, context, timings);
  return run_plan(bind(), context.options, timings);
}

}  // namespace floe
