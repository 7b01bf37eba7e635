// RETURNING of INSERT, UPDATE and DELETE: the list is bound over the target table's columns
// (named by the table or its alias; `*` and `t.*` are all of them) and evaluated on each row
// the statement inserted, updated (its new values) or deleted, like a select list. The
// result carries the statement's command tag ("INSERT 0 2", "UPDATE 2"), as in PostgreSQL.
#pragma once

#include <string>
#include <vector>

#include "engine/api/statement_context.h"
#include "engine/plan/expression.h"

namespace floe {

class ReturningList {
 public:
  // `items` are the statement's ResTarget nodes; none: the statement returns no rows.
  ReturningList(PgQuery__Node* const* items, size_t count, const Table& table,
                const std::string& alias, const Catalog& catalog);

  bool empty() const { return exprs_.empty(); }
  // Adds the list's values for one whole row of the table.
  void add(const std::vector<Value>& row);
  // The rows added, or the plain command when the list is empty.
  Result result(std::string tag, uint64_t affected_rows);

 private:
  std::vector<plan::ExprPtr> exprs_;
  QueryOutput output_;
};

}  // namespace floe
