// Unnesting of subqueries into joins (Neumann & Kemper, "Unnesting Arbitrary Queries",
// BTW 2015). A subquery is correlated when its plan reads columns it does not produce (the
// binder resolves such names in the enclosing query). After this pass no plan contains
// EXISTS or IN subqueries or correlated scalar subqueries; every one became a join, so no
// subquery is re-evaluated per outer row:
//  - a WHERE/HAVING conjunct EXISTS / NOT EXISTS becomes a semi / anti join; x IN (...) a
//    semi join with the key x = column; x NOT IN (...) a null-aware anti join. Correlated
//    conjuncts of the subquery are pulled up into the join (equalities as keys, the rest as
//    the residual), which is exact because EXISTS ignores multiplicities.
//  - a correlated scalar subquery `(SELECT f(agg) FROM ... WHERE inner = outer ...)` becomes
//    a left outer join of the outer input with the aggregate grouped by the inner sides of
//    the correlation equalities: the dependent join pushed through the aggregate, with the
//    outer columns substituted by their equivalent inner columns so that the magic set (the
//    domain of outer values) is not needed for correctness (N&K section 3.3); it is still
//    used as a semi-join reducer of the aggregate's input, so only groups an outer row can
//    use are built. count results of groups that do not exist become 0, not NULL (the
//    "count bug").
//  - every other correlated subquery (non-equality correlation, correlation below GROUP BY,
//    DISTINCT, LIMIT, set operations or outer joins, or from two levels out; scalar
//    subqueries that are not aggregates; correlated NOT IN) and every LATERAL join takes the
//    general dependent join (dependent_join.h): semi / anti joins, a left single join with
//    PostgreSQL's more-than-one-row error, or the LATERAL join itself, on the domain of outer
//    values.
// Uncorrelated scalar subqueries are left in place; the query runner evaluates them once.
// Shapes outside these rules throw floe::NotSupported naming the construct.
#pragma once

#include "engine/plan/logical_plan.h"

namespace floe::plan {

void unnest_subqueries(LogicalPlan& plan);

}  // namespace floe::plan
