// The general dependent join (Neumann & Kemper, "Unnesting Arbitrary Queries", BTW 2015,
// section 3). A subquery correlated with an outer input T reads, per row of T, the values of
// some of T's columns (the outer columns). Instead of running the subquery per row of T, it
// runs once for the domain D = DISTINCT of T's outer columns: D ⋈dep subquery is pushed down
// the subquery's plan until no operator reads an outer column any more:
//  - filter, map, sort, repeat: pushed into their input; their expressions read D's columns;
//  - a join: into the side(s) that read outer columns (both sides: joined on D as well; a
//    FULL join always both, its rows' domain value the present side's);
//  - group by: into its input, with D's columns added to the groups. Without GROUP BY, the
//    aggregate has one row per domain value even for no input: a left join from D, where
//    count gives 0 for a missing group, not NULL (the count bug, section 3.3);
//  - LIMIT / OFFSET: row_number() over the partition of each domain value (the window
//    operator), ordered by the ORDER BY below the limit;
//  - UNION ALL: into every branch;
//  - a generate_series whose arguments read outer columns (LATERAL): a call of the
//    generate_series table function per domain value;
//  - an operator that reads no outer column: the cross product with D (a join whose
//    condition, once the predicate push-down has run, is the correlated predicate above it).
// The caller joins T to the result on the outer columns with IS NOT DISTINCT FROM: a NULL
// outer value is one domain value like any other.
#pragma once

#include <vector>

#include "engine/plan/logical_plan.h"

namespace floe::plan {

// A subquery rewritten into a plan that reads none of `outer` and instead outputs
// `domain[i]`, the value of `outer[i]` its rows belong to.
struct DecorrelatedSubquery {
  LogicalOpPtr plan;
  std::vector<ColumnId> outer;
  std::vector<ColumnId> domain;
};

// Decorrelates `subquery` from the output columns of `outer_input` (a copy of which computes
// the domain). Columns of queries further out stay free, for the enclosing query's pass.
// Throws floe::NotSupported for correlated operators the rules do not cover.
DecorrelatedSubquery decorrelate(LogicalOpPtr subquery, const LogicalOp& outer_input,
                                 ColumnRegistry& registry);

// Adds keys to `join` under which a pair matches when each probe[i] IS NOT DISTINCT FROM
// build[i]: a nullable pair is keyed on (x IS NULL, COALESCE(x, zero)).
void add_not_distinct_keys(JoinOp& join, const std::vector<ColumnId>& probe,
                           const std::vector<ColumnId>& build, const ColumnRegistry& registry);

// The columns of the side a LEFT (RIGHT) join NULL-extends become nullable in the registry.
void mark_null_extended(const JoinOp& join, ColumnRegistry& registry);

// `joined` NULL-extends `aggregate` (an aggregate without GROUP BY joined per domain value):
// its count columns become COALESCE(count, 0) above the join (the count bug).
LogicalOpPtr zero_missing_counts(LogicalOpPtr joined, AggregateOp& aggregate,
                                 ColumnRegistry& registry);

// Whether `subquery` returns exactly one row per evaluation: a select list over an
// aggregate without GROUP BY.
bool returns_one_row(const LogicalOp& subquery);

// Whether `subquery` returns at most one row per evaluation: also LIMIT 0 or 1.
bool at_most_one_row(const LogicalOp& subquery);

// `plan` with PostgreSQL's error "more than one row returned by a subquery used as an
// expression" when some value of the `domain` columns has more than one row: the single join
// of a scalar subquery.
LogicalOpPtr check_single_row(LogicalOpPtr plan, const std::vector<ColumnId>& domain,
                              ColumnRegistry& registry);

}  // namespace floe::plan
