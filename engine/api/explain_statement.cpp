// EXPLAIN SELECT ... (operator tree and pipelines) and EXPLAIN (IR) SELECT ... (the LLVM IR).
// Scalar subqueries are executed while planning, as for the query itself.
#include "engine/api/query_runner.h"
#include "engine/api/statement_context.h"
#include "engine/sql/select_binder.h"
#include "storage/error.h"

namespace floe {

namespace {

Result text_lines(const std::string& text) {
  QueryOutput output;
  output.column_names.push_back("QUERY PLAN");
  output.column_types.push_back(SqlType::text());
  size_t begin = 0;
  while (begin < text.size()) {
    size_t end = text.find('\n', begin);
    if (end == std::string::npos) end = text.size();
    output.rows.push_back({Value::string(text.substr(begin, end - begin))});
    begin = end + 1;
  }
  return Result::query(std::move(output));
}

}  // namespace

Result run_explain(const PgQuery__ExplainStmt& stmt, StatementContext& context) {
  bool ir = false;
  for (size_t i = 0; i < stmt.n_options; ++i) {
    const PgQuery__DefElem& option = *stmt.options[i]->def_elem;
    std::string_view name = option.defname;
    bool enabled = !option.arg || option.arg->node_case != PG_QUERY__NODE__NODE_BOOLEAN ||
                   option.arg->boolean->boolval;
    if (name == "ir")
      ir = enabled;
    else if (name == "analyze")
      throw NotSupported("EXPLAIN ANALYZE", option.location);
    else
      throw NotSupported("EXPLAIN option " + std::string(name), option.location);
  }
  if (stmt.query->node_case != PG_QUERY__NODE__NODE_SELECT_STMT)
    throw NotSupported("EXPLAIN of this statement");
  PhaseTimings timings;
  auto start = std::chrono::steady_clock::now();
  plan::LogicalPlan logical = sql::bind_select(*stmt.query->select_stmt, context.catalog);
  timings.plan_ms = elapsed_ms(start);
  plan::PhysicalPlan physical = prepare_plan(std::move(logical), context.options, timings);
  Result result = text_lines(ir ? generate_ir(physical, context.options) : plan::explain(physical));
  result.mutable_timings() = timings;
  return result;
}

}  // namespace floe
