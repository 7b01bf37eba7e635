// Plans compiled once and run many times with each execution's $n values: a prepared SELECT,
// and the query inside a prepared INSERT ... SELECT, UPDATE or DELETE (the rows it inserts,
// or the target rows and their new values, dml_target.h). See prepared_query.h.
#pragma once

#include <functional>
#include <memory>
#include <vector>

#include "engine/api/statement_context.h"
#include "engine/plan/physical_plan.h"

namespace floe {

// Whether planning would evaluate part of the query (uncorrelated scalar subqueries become
// constants, WITH RECURSIVE runs): such a plan holds values of the moment it was made.
bool plans_with_data(plan::LogicalPlan& logical);

// A bound plan, planned and compiled (the compiled executor, whatever SET execution_mode
// says: a prepared statement's code is what it reuses).
struct CompiledPlan {
  CompiledPlan(plan::LogicalPlan logical, const ExecutionOptions& options);
  ~CompiledPlan();
  std::vector<SqlType> result_types() const;

  plan::PhysicalPlan plan;
  std::unique_ptr<CompiledQuery> query;
};

// The query inside one prepared INSERT, UPDATE or DELETE. Such a statement is bound at each
// execution with its parameters as constants (cheap: no code is generated for VALUES, SET
// and RETURNING lists, which are evaluated per row); only its query would be planned and
// compiled each time, so it is kept here instead: bound once with the parameters as slots,
// compiled, and run with each execution's values. Bound again when a parameter's type
// changes (an undeclared parameter takes its value's type); a query that plans with data or
// uses a parameter of undetermined type is bound and run each time.
class StatementQueryCache {
 public:
  StatementQueryCache();
  ~StatementQueryCache();
  // `bind` binds the query (called with the parameters as slots, or as constants).
  QueryOutput run(const std::function<plan::LogicalPlan()>& bind, StatementContext& context,
                  PhaseTimings& timings);

 private:
  std::vector<SqlType> key_;    // the parameter types it was bound with
  std::vector<SqlType> types_;  // as the binding deduced them (unknown: unused)
  std::unique_ptr<CompiledPlan> compiled_;
  bool plans_with_data_ = false;
};

// Runs the query of an INSERT ... SELECT, UPDATE or DELETE: through the cache of the prepared
// statement executing (StatementContext::query_cache), else planned and compiled now.
QueryOutput run_statement_query(const std::function<plan::LogicalPlan()>& bind,
                                StatementContext& context, PhaseTimings& timings);

}  // namespace floe
