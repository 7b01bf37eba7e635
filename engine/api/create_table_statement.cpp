// CREATE TABLE [IF NOT EXISTS] with NOT NULL, PRIMARY KEY, UNIQUE, CHECK and FOREIGN KEY, as
// column and as table constraints, DEFAULT, serial types and identity columns. Key constraints
// are named and merged as PostgreSQL does (transformIndexConstraints): the primary key first,
// a constraint on the same columns as an earlier one folded into it.
#include "engine/api/statement_context.h"
#include "engine/api/table_definition.h"
#include "storage/error.h"

namespace floe {

Result run_create_table(const PgQuery__CreateStmt& stmt, StatementContext& context) {
  const PgQuery__RangeVar& relation = *stmt.relation;
  if (stmt.n_inh_relations) throw NotSupported("table inheritance", relation.location);
  if (stmt.partspec) throw NotSupported("partitioned tables", relation.location);
  if (stmt.of_typename) throw NotSupported("typed tables", relation.location);
  if (relation.relpersistence && std::string_view(relation.relpersistence) == "t")
    throw NotSupported("temporary tables", relation.location);
  const std::string name = relation.relname;
  const bool exists = context.catalog.relation_exists(name);
  if (stmt.if_not_exists && exists) return Result::command("CREATE TABLE");
  if (exists)
    throw Error("relation \"" + std::string(relation.relname) + "\" already exists",
                relation.location);
  TableDefinition definition(relation.relname, context.catalog);
  for (size_t i = 0; i < stmt.n_table_elts; ++i) {
    const sql::Node* element = stmt.table_elts[i];
    if (element->node_case == PG_QUERY__NODE__NODE_COLUMN_DEF)
      definition.add_column(*element->column_def);
    else if (element->node_case == PG_QUERY__NODE__NODE_CONSTRAINT)
      definition.add_table_constraint(*element->constraint);
    else
      throw NotSupported("LIKE in CREATE TABLE", relation.location);
  }
  for (size_t i = 0; i < stmt.n_constraints; ++i)
    definition.add_table_constraint(*stmt.constraints[i]->constraint);
  definition.create();
  return Result::command("CREATE TABLE");
}

}  // namespace floe
