// Expressions kept as SQL text (column defaults and CHECK constraints in the catalog, which
// storage/ keeps without knowing SQL): printed back from the parse tree by libpg_query's
// deparser, and parsed again when a statement binds them.
#pragma once

#include <string>

#include "engine/sql/parser.h"
#include "engine/sql/pg_node.h"

namespace floe::sql {

// The SQL text of an expression of a parse tree, e.g. "(a > 0)" or "nextval('s')".
std::string expression_text(const Node* expression);

// The text of an expression with every column reference named `from` (plain or qualified)
// renamed to `to` (ALTER TABLE ... RENAME COLUMN of a column a CHECK constraint reads).
std::string rename_column_references(const std::string& text, const std::string& from,
                                     const std::string& to);

// An expression parsed from its text; the node lives as long as this.
class ParsedExpression {
 public:
  explicit ParsedExpression(const std::string& text);
  const Node* node() const { return node_; }

 private:
  ParseTree tree_;
  const Node* node_;
};

}  // namespace floe::sql
