// Procedures that CALL runs (engine/api/call_statement.cpp dispatches by name), one file
// each: engine/api/<name>_procedure.cpp.
#pragma once

#include "engine/api/statement_context.h"

namespace floe {

// CALL dbgen(sf): creates the eight TPC-H tables (tpch/schema.sql) and loads them with the
// dbgen-identical generator at scale factor `sf`, all or nothing.
Result run_dbgen(const PgQuery__FuncCall& call, StatementContext& context);

// CALL freeze('table' [, 'sort_column']): freezes all of the table's hot chunks, each block
// sorted on the column when one is given.
Result run_freeze(const PgQuery__FuncCall& call, StatementContext& context);
// CALL freeze_settled('table', 'column'): freezes the full hot chunks whose rows all have a
// value in the column (or are deleted); affected_rows() is the number of chunks frozen.
Result run_freeze_settled(const PgQuery__FuncCall& call, StatementContext& context);

}  // namespace floe
