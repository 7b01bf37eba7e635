// WITH RECURSIVE: a WITH query of the form non-recursive-term UNION [ALL] recursive-term,
// whose recursive term names the query itself, becomes a plan::RecursiveQuery (run before
// the statement's plan) and is read as a scan of its result table.
#pragma once

#include <string>

#include "engine/plan/logical_plan.h"
#include "engine/sql/bind_scope.h"
#include "engine/sql/pg_node.h"

namespace floe::sql {

// The recursive WITH query of that name whose terms are being bound, or null.
WorkingTable* find_working_table(const BindContext& context, std::string_view name);

// Its self-reference: a scan of the working table (the rows of the previous iteration).
// Throws PostgreSQL's errors for a reference where it is not allowed.
plan::LogicalOpPtr bind_working_table(WorkingTable& working, const std::string& alias,
                                      BindContext& context, BindScope& scope, int location);

// A reference to a WITH query of a WITH RECURSIVE clause: a scan of its result, or null
// when the query does not name itself (then it is an ordinary WITH query).
plan::LogicalOpPtr bind_recursive_cte(const PgQuery__CommonTableExpr& cte, BindContext& context,
                                      const std::string& alias, int location, BindScope& scope);

}  // namespace floe::sql
