// ALTER TABLE [IF EXISTS] t ADD [COLUMN] [IF NOT EXISTS] ..., DROP [COLUMN] [IF EXISTS] c,
// ALTER [COLUMN] c SET/DROP DEFAULT, SET/DROP NOT NULL, ADD table constraint; and ALTER TABLE
// t RENAME [COLUMN] a TO b / RENAME TO name. The commands of one statement are applied
// together: the table's new definition (engine/api/table_definition.h) is worked out first,
// then the rows are rewritten once, chunk by chunk (Table::change_columns: frozen chunks are
// frozen again), filling new columns with their defaults (volatile ones per row) and checking
// the constraints the statement adds against every row. Nothing changes when that fails.
#include "engine/api/row_constraints.h"
#include "engine/api/statement_context.h"
#include "engine/api/table_definition.h"
#include "engine/sql/expression_text.h"
#include "storage/error.h"

namespace floe {

namespace {

Table* find_table(const PgQuery__RangeVar& relation, bool missing_ok, Catalog& catalog) {
  const std::string name = relation.relname;
  if (relation.schemaname && *relation.schemaname) throw NotSupported("schemas", relation.location);
  Table* table = catalog.find_table(name);
  if (table) return table;
  if (catalog.find_view(name) || catalog.find_sequence(name))
    throw Error("\"" + name + "\" is not a table", relation.location);
  if (!missing_ok) throw Error("relation \"" + name + "\" does not exist", relation.location);
  return nullptr;
}

[[noreturn]] void missing_column(const std::string& column, const Table& table) {
  throw Error("column \"" + column + "\" of relation \"" + table.name() + "\" does not exist");
}

// Whether the command changes what the rows hold or must satisfy, or how they are stored
// (a NOT NULL column has no validity bitmap): all but SET/DROP DEFAULT.
bool rewrites(PgQuery__AlterTableType type) {
  return type != PG_QUERY__ALTER_TABLE_TYPE__AT_ColumnDefault;
}

// Other tables' foreign keys that reference `table` count its columns: after the change,
// column c of the old table is column map[c] of the new one.
void remap_references(Catalog& catalog, const Table& table,
                      const std::vector<std::optional<size_t>>& origins) {
  for (auto [other, key] : catalog.references_to(table)) {
    if (other == &table) continue;
    for (ForeignKey& mutable_key : other->constraints().foreign_keys) {
      if (&mutable_key != key) continue;
      for (size_t& column : mutable_key.referenced_columns)
        column = static_cast<size_t>(std::find(origins.begin(), origins.end(), column) -
                                     origins.begin());
    }
  }
}

}  // namespace

Result run_alter_table(const PgQuery__AlterTableStmt& stmt, StatementContext& context) {
  if (stmt.objtype != PG_QUERY__OBJECT_TYPE__OBJECT_TABLE)
    throw NotSupported("ALTER of this kind of object", stmt.relation->location);
  Result result = Result::command("ALTER TABLE");
  Catalog& catalog = context.catalog;
  Table* table = find_table(*stmt.relation, stmt.missing_ok, catalog);
  if (!table) {
    result.add_notice("relation \"" + std::string(stmt.relation->relname) +
                      "\" does not exist, skipping");
    return result;
  }
  TableDefinition definition(*table, catalog);
  bool rewrite = false;
  for (size_t i = 0; i < stmt.n_cmds; ++i) {
    const PgQuery__AlterTableCmd& command = *stmt.cmds[i]->alter_table_cmd;
    rewrite = rewrite || rewrites(command.subtype);
    std::optional<size_t> column;
    if (command.name && *command.name) column = definition.column(command.name);
    switch (command.subtype) {
      case PG_QUERY__ALTER_TABLE_TYPE__AT_AddColumn: {
        const PgQuery__ColumnDef& def = *command.def->column_def;
        if (command.missing_ok && definition.column(def.colname)) {
          result.add_notice("column \"" + std::string(def.colname) + "\" of relation \"" +
                            table->name() + "\" already exists, skipping");
          break;
        }
        if (definition.column(def.colname))
          throw Error("column \"" + std::string(def.colname) + "\" of relation \"" + table->name() +
                      "\" already exists");
        definition.add_column(def);
        break;
      }
      case PG_QUERY__ALTER_TABLE_TYPE__AT_DropColumn:
        if (command.behavior == PG_QUERY__DROP_BEHAVIOR__DROP_CASCADE)
          throw NotSupported("DROP COLUMN ... CASCADE");
        if (!column && command.missing_ok) {
          result.add_notice("column \"" + std::string(command.name) + "\" of relation \"" +
                            table->name() + "\" does not exist, skipping");
          break;
        }
        if (!column) missing_column(command.name, *table);
        definition.drop_column(*column);
        break;
      case PG_QUERY__ALTER_TABLE_TYPE__AT_ColumnDefault:
        if (!column) missing_column(command.name, *table);
        definition.set_default(*column, command.def, -1);
        break;
      case PG_QUERY__ALTER_TABLE_TYPE__AT_SetNotNull:
      case PG_QUERY__ALTER_TABLE_TYPE__AT_DropNotNull:
        if (!column) missing_column(command.name, *table);
        definition.set_not_null(*column,
                                command.subtype == PG_QUERY__ALTER_TABLE_TYPE__AT_SetNotNull, -1);
        break;
      case PG_QUERY__ALTER_TABLE_TYPE__AT_AddConstraint:
        definition.add_table_constraint(*command.def->constraint);
        break;
      default:
        throw NotSupported("this form of ALTER TABLE");
    }
  }
  // The rewrite keeps each row's newest state only: the older versions a running transaction
  // may still read, or a ROLLBACK restore, would be lost.
  if (rewrite && table->has_version_chains())
    throw NotSupported("ALTER TABLE of a table with changes that running transactions may need");
  TableDefinition::Result changed = definition.finish(table);
  try {
    if (rewrite) {
      const RowConstraints constraints(table->name(), changed.columns, changed.constraints,
                                       catalog);
      const std::vector<std::optional<size_t>>& origins = definition.origins();
      table->change_columns(
          changed.columns, changed.keys, origins,
          [&](std::vector<Value>& row) {
            for (size_t c = 0; c < row.size(); ++c)
              if (!origins[c]) row[c] = constraints.default_value(c);
            constraints.check_existing_row(row, definition.first_new_check());
            constraints.check_foreign_keys(row, definition.first_new_foreign_key());
          },
          changed.constraints);
      remap_references(catalog, *table, origins);
    } else {
      table->constraints() = changed.constraints;
    }
  } catch (...) {
    for (const std::string& sequence : definition.created_sequences())
      catalog.drop_sequence(sequence);
    throw;
  }
  for (const std::string& sequence : definition.dropped_sequences())
    catalog.drop_sequence(sequence);
  return result;
}

Result run_rename(const PgQuery__RenameStmt& stmt, StatementContext& context) {
  Catalog& catalog = context.catalog;
  if (stmt.rename_type != PG_QUERY__OBJECT_TYPE__OBJECT_TABLE &&
      stmt.rename_type != PG_QUERY__OBJECT_TYPE__OBJECT_COLUMN)
    throw NotSupported("ALTER ... RENAME of this kind of object");
  if (stmt.relation_type != PG_QUERY__OBJECT_TYPE__OBJECT_TABLE &&
      stmt.rename_type == PG_QUERY__OBJECT_TYPE__OBJECT_COLUMN)
    throw NotSupported("ALTER ... RENAME of this kind of object");
  Result result = Result::command("ALTER TABLE");
  Table* table = find_table(*stmt.relation, stmt.missing_ok, catalog);
  if (!table) {
    result.add_notice("relation \"" + std::string(stmt.relation->relname) +
                      "\" does not exist, skipping");
    return result;
  }
  const std::string new_name = stmt.newname;
  if (stmt.rename_type == PG_QUERY__OBJECT_TYPE__OBJECT_TABLE) {
    if (catalog.relation_exists(new_name))
      throw Error("relation \"" + new_name + "\" already exists");
    catalog.rename_table(table->name(), new_name);
    return result;
  }
  const std::string old_name = stmt.subname;
  std::optional<size_t> column = table->find_column(old_name);
  if (!column) throw Error("column \"" + old_name + "\" does not exist");
  if (table->find_column(new_name))
    throw Error("column \"" + new_name + "\" of relation \"" + table->name() + "\" already exists");
  // CHECK constraints name the column in their text.
  std::vector<CheckConstraint> checks = table->constraints().checks;
  for (CheckConstraint& check : checks)
    check.expression = sql::rename_column_references(check.expression, old_name, new_name);
  table->rename_column(*column, new_name);
  table->constraints().checks = std::move(checks);
  return result;
}

}  // namespace floe
