// Set operations (UNION, INTERSECT, EXCEPT, each with or without ALL) and VALUES lists as
// queries, with ORDER BY / LIMIT / OFFSET over the whole result.
//
// Plan shapes (`columns` are the unified output columns):
//   a UNION ALL b        UnionAllOp(a, b): both pipelines push into the operators above
//   a UNION b            AggregateOp(groups = columns) over UnionAllOp(a, b)
//   a INTERSECT/EXCEPT b AggregateOp(groups = columns; count(*), count(marker)) over
//                        UnionAllOp(a + marker TRUE, b + marker NULL): per group the rows of
//                        a and of b; then a FilterOp (distinct forms) or a RepeatOp with
//                        min(a, b) / a - b copies (ALL forms)
// PostgreSQL's precedence (INTERSECT binds tighter) comes with the parse tree.
#pragma once

#include "engine/sql/select_binder.h"

namespace floe::sql {

// `stmt` is a set operation (stmt.op) or a VALUES list (stmt.values_lists).
BoundQuery bind_set_operation(const PgQuery__SelectStmt& stmt, BindContext& context,
                              const BindScope* outer);

}  // namespace floe::sql
