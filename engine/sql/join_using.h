// JOIN ... USING (columns) and NATURAL JOIN (PostgreSQL 15 manual, 7.2.1.1 "Joined Tables"):
// the join condition is the equality of the like-named columns of the two sides, and each
// pair becomes one merged output column: the left one for INNER and LEFT joins, the right one
// for RIGHT joins, COALESCE(left, right) for FULL joins, cast to the pair's common type. An
// unqualified name then means the merged column (listed first by *), while t.x still reaches
// each side's own.
#pragma once

#include <string>
#include <vector>

#include "engine/plan/logical_plan.h"
#include "engine/sql/bind_scope.h"
#include "engine/sql/pg_node.h"

namespace floe::sql {

class UsingColumns {
 public:
  // Finds the columns to merge between the left side, tables()[left_first..right_first) of
  // `scope`, and the right side, [right_first..end): the USING list of `join`, or for a
  // NATURAL join every unqualified name the two sides share, in the left side's order.
  // Throws PostgreSQL's errors for a missing, repeated or ambiguous name.
  UsingColumns(const PgQuery__JoinExpr& join, BindScope& scope, size_t left_first,
               size_t right_first, size_t end);

  // left.x = right.x AND ...; nullptr when there is nothing to merge (NATURAL JOIN of sides
  // without common names: a cross join). Once.
  plan::ExprPtr take_condition();

  // After the join is built (and its sides made nullable): adds the merged columns to
  // `scope` before the left side's tables and hides the columns they merge. Returns `join`,
  // under a MapOp when a merged column has to be computed (a cast or a FULL join's COALESCE).
  plan::LogicalOpPtr merge(plan::LogicalOpPtr join, PgQuery__JoinType type, BindContext& context,
                           BindScope& scope, size_t left_first) const;

 private:
  struct Pair {
    std::string name;
    plan::ColumnId left;
    plan::ColumnId right;
    SqlType type;  // the common type the condition compares in
  };
  std::vector<Pair> pairs_;
  std::vector<plan::ExprPtr> equalities_;
};

}  // namespace floe::sql
