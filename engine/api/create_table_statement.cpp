// CREATE TABLE [IF NOT EXISTS] with NOT NULL and PRIMARY KEY (declared only for now).
#include <algorithm>

#include "engine/api/statement_context.h"
#include "engine/sql/type_name.h"
#include "storage/error.h"

namespace floe {

namespace {

[[noreturn]] void unsupported_constraint(const PgQuery__Constraint& constraint) {
  switch (constraint.contype) {
    case PG_QUERY__CONSTR_TYPE__CONSTR_DEFAULT:
      throw NotSupported("DEFAULT values", constraint.location);
    case PG_QUERY__CONSTR_TYPE__CONSTR_UNIQUE:
      throw NotSupported("UNIQUE constraints", constraint.location);
    case PG_QUERY__CONSTR_TYPE__CONSTR_CHECK:
      throw NotSupported("CHECK constraints", constraint.location);
    case PG_QUERY__CONSTR_TYPE__CONSTR_FOREIGN:
      throw NotSupported("FOREIGN KEY constraints", constraint.location);
    default:
      throw NotSupported("this kind of constraint", constraint.location);
  }
}

class TableDefinition {
 public:
  explicit TableDefinition(std::string name) : name_(std::move(name)) {}

  void add_column(const PgQuery__ColumnDef& def) {
    if (find(def.colname))
      throw Error("column \"" + std::string(def.colname) + "\" specified more than once",
                  def.location);
    columns_.push_back({def.colname, sql::resolve_type_name(*def.type_name), !def.is_not_null});
    for (size_t i = 0; i < def.n_constraints; ++i) {
      const PgQuery__Constraint& constraint = *def.constraints[i]->constraint;
      switch (constraint.contype) {
        case PG_QUERY__CONSTR_TYPE__CONSTR_NULL:
          break;
        case PG_QUERY__CONSTR_TYPE__CONSTR_NOTNULL:
          columns_.back().nullable = false;
          break;
        case PG_QUERY__CONSTR_TYPE__CONSTR_PRIMARY:
          set_primary_key({columns_.size() - 1}, constraint.location);
          break;
        default:
          unsupported_constraint(constraint);
      }
    }
  }

  void add_table_constraint(const PgQuery__Constraint& constraint) {
    if (constraint.contype != PG_QUERY__CONSTR_TYPE__CONSTR_PRIMARY)
      unsupported_constraint(constraint);
    std::vector<size_t> key;
    for (size_t i = 0; i < constraint.n_keys; ++i) {
      std::string_view name = sql::node_string(constraint.keys[i]);
      auto index = find(name);
      if (!index)
        throw Error("column \"" + std::string(name) + "\" named in key does not exist",
                    constraint.location);
      key.push_back(*index);
    }
    set_primary_key(std::move(key), constraint.location);
  }

  Table& create(Catalog& catalog) {
    return catalog.create_table(name_, std::move(columns_), std::move(primary_key_));
  }

 private:
  std::optional<size_t> find(std::string_view name) const {
    for (size_t i = 0; i < columns_.size(); ++i)
      if (columns_[i].name == name) return i;
    return std::nullopt;
  }

  void set_primary_key(std::vector<size_t> key, int location) {
    if (!primary_key_.empty())
      throw Error("multiple primary keys for table \"" + name_ + "\" are not allowed", location);
    for (size_t column : key) columns_[column].nullable = false;
    primary_key_ = std::move(key);
  }

  std::string name_;
  std::vector<ColumnDef> columns_;
  std::vector<size_t> primary_key_;
};

}  // namespace

Result run_create_table(const PgQuery__CreateStmt& stmt, StatementContext& context) {
  const PgQuery__RangeVar& relation = *stmt.relation;
  if (stmt.n_inh_relations) throw NotSupported("table inheritance", relation.location);
  if (stmt.partspec) throw NotSupported("partitioned tables", relation.location);
  if (stmt.of_typename) throw NotSupported("typed tables", relation.location);
  if (relation.relpersistence && std::string_view(relation.relpersistence) == "t")
    throw NotSupported("temporary tables", relation.location);
  if (stmt.if_not_exists && context.catalog.find_table(relation.relname))
    return Result::command("CREATE TABLE");
  if (context.catalog.find_table(relation.relname))
    throw Error("relation \"" + std::string(relation.relname) + "\" already exists",
                relation.location);
  TableDefinition definition(relation.relname);
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
  definition.create(context.catalog);
  return Result::command("CREATE TABLE");
}

}  // namespace floe
