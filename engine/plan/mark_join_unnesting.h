// Mark joins (Neumann & Kemper, "Unnesting Arbitrary Queries", BTW 2015, section 2.2): the
// unnesting of EXISTS, IN and quantified comparisons (x op ANY / ALL) that are not AND-ed
// WHERE / HAVING conditions (subquery_unnesting.h turns those into semi and anti joins).
// Under OR or NOT, in the select list or in CASE, such a subquery's three-valued result is a
// column: the mark of a mark join of the enclosing input with the subquery, whose keys are
// the correlation equalities, pulled up like a semi join's. IN compares its needles with the
// subquery's columns as hashed "mark keys", other quantified comparisons evaluate their
// comparison on each candidate pair. An uncorrelated quantified comparison other than IN
// needs no join per row: count(*), count, min and max of the subquery, computed once,
// decide it (x > ANY (S) is x > min(S) when S has rows, unknown when that is not true and S
// holds a NULL or x is NULL).
#pragma once

#include "engine/plan/logical_plan.h"

namespace floe::plan {

// Turns `join`, a join of the enclosing input with `node`'s subquery whose keys and residual
// are the pulled-up correlation, into a mark join for `node` (kExists or kInSubquery).
// Returns the expression that replaces `node`: the mark, or NOT the mark.
ExprPtr make_mark_join(JoinOp& join, Expr& node, ColumnRegistry& registry);

// Whether `node` is an uncorrelated quantified comparison that quantified_by_aggregates
// decides (an operator other than =).
bool decided_by_aggregates(const Expr& node);

// Joins `input` with the one-row aggregate of `node`'s subquery and replaces `node` by the
// expression over it that gives the comparison's result.
LogicalOpPtr quantified_by_aggregates(LogicalOpPtr input, ExprPtr& node,
                                      ColumnRegistry& registry);

}  // namespace floe::plan
