// CREATE TABLE [IF NOT EXISTS] with NOT NULL, PRIMARY KEY and UNIQUE, as column and as table
// constraints. Constraints are named and merged as PostgreSQL does (transformIndexConstraints):
// the primary key first, a constraint on the same columns as an earlier one folded into it.
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
    case PG_QUERY__CONSTR_TYPE__CONSTR_CHECK:
      throw NotSupported("CHECK constraints", constraint.location);
    case PG_QUERY__CONSTR_TYPE__CONSTR_FOREIGN:
      throw NotSupported("FOREIGN KEY constraints", constraint.location);
    case PG_QUERY__CONSTR_TYPE__CONSTR_ATTR_DEFERRABLE:
    case PG_QUERY__CONSTR_TYPE__CONSTR_ATTR_DEFERRED:
      throw NotSupported("DEFERRABLE constraints", constraint.location);
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
        case PG_QUERY__CONSTR_TYPE__CONSTR_UNIQUE:
          add_key(constraint, {columns_.size() - 1});
          break;
        default:
          unsupported_constraint(constraint);
      }
    }
  }

  void add_table_constraint(const PgQuery__Constraint& constraint) {
    if (constraint.contype != PG_QUERY__CONSTR_TYPE__CONSTR_PRIMARY &&
        constraint.contype != PG_QUERY__CONSTR_TYPE__CONSTR_UNIQUE)
      unsupported_constraint(constraint);
    const bool primary = constraint.contype == PG_QUERY__CONSTR_TYPE__CONSTR_PRIMARY;
    std::vector<size_t> key;
    for (size_t i = 0; i < constraint.n_keys; ++i) {
      std::string_view name = sql::node_string(constraint.keys[i]);
      auto index = find(name);
      if (!index)
        throw Error("column \"" + std::string(name) + "\" named in key does not exist",
                    constraint.location);
      if (std::find(key.begin(), key.end(), *index) != key.end())
        throw Error("column \"" + std::string(name) + "\" appears twice in " +
                        (primary ? "primary key" : "unique") + " constraint",
                    constraint.location);
      key.push_back(*index);
    }
    add_key(constraint, std::move(key));
  }

  Table& create(Catalog& catalog) {
    for (KeyConstraint& key : keys_)
      if (key.name.empty()) key.name = choose_name(key);
    return catalog.create_table(name_, std::move(columns_), std::move(keys_));
  }

 private:
  std::optional<size_t> find(std::string_view name) const {
    for (size_t i = 0; i < columns_.size(); ++i)
      if (columns_[i].name == name) return i;
    return std::nullopt;
  }

  void add_key(const PgQuery__Constraint& constraint, std::vector<size_t> columns) {
    if (constraint.deferrable) throw NotSupported("DEFERRABLE constraints", constraint.location);
    if (constraint.nulls_not_distinct)
      throw NotSupported("UNIQUE NULLS NOT DISTINCT", constraint.location);
    if (constraint.n_including) throw NotSupported("INCLUDE in constraints", constraint.location);
    if (constraint.n_options || constraint.indexspace[0])
      throw NotSupported("index parameters of constraints", constraint.location);
    const bool primary = constraint.contype == PG_QUERY__CONSTR_TYPE__CONSTR_PRIMARY;
    if (primary) {
      for (const KeyConstraint& key : keys_)
        if (key.primary)
          throw Error("multiple primary keys for table \"" + name_ + "\" are not allowed",
                      constraint.location);
      for (size_t column : columns) columns_[column].nullable = false;
    }
    KeyConstraint key{constraint.conname, std::move(columns), primary};
    // One index per set of columns: a later constraint on the same columns folds into the
    // earlier one (which takes its name when it has none), a primary key makes it primary.
    for (KeyConstraint& earlier : keys_) {
      if (earlier.columns != key.columns) continue;
      earlier.primary = earlier.primary || key.primary;
      if (earlier.name.empty()) earlier.name = key.name;
      return;
    }
    keys_.push_back(std::move(key));
  }

  // PostgreSQL's ChooseRelationName: t_pkey, t_a_b_key; a taken name gets a number.
  std::string choose_name(const KeyConstraint& key) const {
    std::string columns;
    for (size_t column : key.columns)
      columns += (columns.empty() ? "" : "_") + columns_[column].name;
    const std::string base = key.primary ? name_ : name_ + "_" + columns;
    const std::string label = key.primary ? "pkey" : "key";
    for (int number = 0;; ++number) {
      std::string suffix = number ? label + std::to_string(number) : label;
      std::string name = base + "_" + suffix;
      bool taken = false;
      for (const KeyConstraint& other : keys_) taken = taken || other.name == name;
      if (!taken) return name;
    }
  }

  std::string name_;
  std::vector<ColumnDef> columns_;
  std::vector<KeyConstraint> keys_;
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
