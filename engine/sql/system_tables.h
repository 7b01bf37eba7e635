// System tables: names in FROM that no table or view of the catalog takes, whose rows are
// computed when a query names them.
//   floe_storage  per table and column: hot and frozen chunks, the frozen chunks' compression
//                 schemes, bytes before and after compression (storage/storage_report.h).
//   pg_indexes    PostgreSQL's: schemaname, tablename, indexname, tablespace, indexdef of
//                 every index (of constraints and of CREATE INDEX).
#pragma once

#include "engine/sql/bind_scope.h"
#include "engine/sql/pg_node.h"

namespace floe::sql {

// The system table `range` names as a constant relation, or null when it names none.
plan::LogicalOpPtr bind_system_table(const PgQuery__RangeVar& range, BindContext& context,
                                     BindScope& scope);

}  // namespace floe::sql
