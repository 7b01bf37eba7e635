// libpg_query front door: PostgreSQL's own grammar turns SQL text into a protobuf parse tree
// (DESIGN.md "SQL"). Locations inside the tree are byte offsets into the whole input.
#pragma once

#include <string>
#include <string_view>

#include <pg_query/pg_query.pb-c.h>

namespace floe::sql {

// Owns the unpacked parse tree of a script of one or more statements.
class ParseTree {
 public:
  // Throws floe::Error with the 0-based byte position of a syntax error, and PostgreSQL's
  // "invalid byte sequence for encoding" error when `sql` is not valid UTF-8.
  explicit ParseTree(std::string_view sql);
  ~ParseTree();
  ParseTree(const ParseTree&) = delete;
  ParseTree& operator=(const ParseTree&) = delete;

  size_t statement_count() const { return result_->n_stmts; }
  const PgQuery__RawStmt& statement(size_t index) const { return *result_->stmts[index]; }

 private:
  PgQuery__ParseResult* result_ = nullptr;
};

}  // namespace floe::sql
