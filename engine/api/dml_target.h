// The query half of DELETE and UPDATE: their target rows are found by a compiled query like
// any SELECT, `SELECT <values> FROM <target>, <USING / FROM list> WHERE <condition>`, whose
// scan of the target table also reads each row's id (kRowIdColumn). The statement then
// changes those rows through its transaction (engine/txn/transaction.h).
#pragma once

#include <chrono>
#include <cstdint>
#include <string>
#include <vector>

#include "engine/api/returning.h"
#include "engine/api/statement_context.h"

namespace floe {

struct DmlTargetRows {
  // Each target row once, in row-id order (a join may produce a row several times: the
  // first values count, as in PostgreSQL, where one of them is taken).
  std::vector<uint64_t> row_ids;
  std::vector<std::vector<Value>> values;  // per row, one per target expression
  std::vector<SqlType> types;              // the target expressions'
};

// `targets` are ResTarget nodes (UPDATE's SET list; none for DELETE), bound in the scope of
// the target relation and `from`.
DmlTargetRows find_target_rows(Table& table, const PgQuery__RangeVar& relation,
                               PgQuery__Node* const* from, size_t from_count, PgQuery__Node* where,
                               PgQuery__Node* const* targets, size_t target_count,
                               StatementContext& context, PhaseTimings& timings);

// The command result "<command> <n>", with the RETURNING rows if any, and the statement's
// timings (started at `start`).
Result dml_result(ReturningList& returning, const std::string& command, size_t rows,
                  PhaseTimings timings, std::chrono::steady_clock::time_point start);

// The columns of a SET list (UPDATE, ON CONFLICT DO UPDATE), in order, with PostgreSQL's
// errors.
std::vector<uint32_t> set_columns(PgQuery__Node* const* targets, size_t count, const Table& table);

// The name the statement's target table goes by: its alias, else its name.
std::string target_alias(const PgQuery__RangeVar& relation);

// The table a DELETE or UPDATE names, or PostgreSQL's error.
Table& target_table(const PgQuery__RangeVar& relation, const Catalog& catalog);

}  // namespace floe
