#include "engine/api/table_definition.h"

#include <algorithm>
#include <set>

#include "engine/api/row_constraints.h"
#include "engine/api/sequence_definition.h"
#include "engine/sql/expression_text.h"
#include "engine/sql/type_name.h"
#include "engine/sql/type_rules.h"
#include "storage/error.h"
#include "storage/identifier.h"

namespace floe {

namespace {

[[noreturn]] void unsupported_constraint(const PgQuery__Constraint& constraint) {
  switch (constraint.contype) {
    case PG_QUERY__CONSTR_TYPE__CONSTR_GENERATED:
      throw NotSupported("generated columns", constraint.location);
    case PG_QUERY__CONSTR_TYPE__CONSTR_EXCLUSION:
      throw NotSupported("exclusion constraints", constraint.location);
    case PG_QUERY__CONSTR_TYPE__CONSTR_ATTR_DEFERRABLE:
    case PG_QUERY__CONSTR_TYPE__CONSTR_ATTR_DEFERRED:
      throw NotSupported("DEFERRABLE constraints", constraint.location);
    default:
      throw NotSupported("this kind of constraint", constraint.location);
  }
}

// serial, bigserial, smallserial (and serial4, serial8, serial2): the integer type they stand
// for, or nullopt.
std::optional<SqlType> serial_type(const PgQuery__TypeName& type) {
  if (type.n_names != 1 || type.n_array_bounds) return std::nullopt;
  std::string_view name = sql::node_string(type.names[0]);
  if (name == "serial" || name == "serial4") return SqlType::integer();
  if (name == "bigserial" || name == "serial8") return SqlType::big_int();
  if (name == "smallserial" || name == "serial2") return SqlType::small_int();
  return std::nullopt;
}

ForeignKeyAction foreign_key_action(const char* action, int location) {
  switch (action && *action ? *action : 'a') {
    case 'a':
      return ForeignKeyAction::kNoAction;
    case 'r':
      return ForeignKeyAction::kRestrict;
    case 'c':
      return ForeignKeyAction::kCascade;
    case 'n':
      return ForeignKeyAction::kSetNull;
    case 'd':
      return ForeignKeyAction::kSetDefault;
    default:
      throw NotSupported("this foreign key action", location);
  }
}

// 'text', quotes doubled.
std::string string_literal(const std::string& text) {
  std::string literal = "'";
  for (char c : text) literal += c == '\'' ? std::string("''") : std::string(1, c);
  return literal + "'";
}

// Distinct columns an expression reads.
void collect_column_ids(const plan::Expr& expr, std::set<plan::ColumnId>& out) {
  if (expr.kind == plan::ExprKind::kColumn) out.insert(expr.column);
  for (const plan::ExprPtr& child : expr.children) collect_column_ids(*child, out);
}

}  // namespace

TableDefinition::TableDefinition(std::string name, Catalog& catalog)
    : name_(std::move(name)), catalog_(catalog) {}

TableDefinition::TableDefinition(const Table& table, Catalog& catalog)
    : name_(table.name()),
      catalog_(catalog),
      columns_(table.columns()),
      constraints_(table.constraints()),
      sources_(table.columns().size()),
      existing_checks_(table.constraints().checks.size()),
      existing_foreign_keys_(table.constraints().foreign_keys.size()) {
  for (const auto& index : table.unique_indexes()) keys_.push_back(index->constraint());
  for (size_t c = 0; c < columns_.size(); ++c) origins_.push_back(c);
}

std::optional<size_t> TableDefinition::find(std::string_view name) const {
  for (size_t i = 0; i < columns_.size(); ++i)
    if (columns_[i].name == name) return i;
  return std::nullopt;
}

void TableDefinition::add_column(const PgQuery__ColumnDef& def) {
  if (find(def.colname))
    throw Error("column \"" + std::string(def.colname) + "\" specified more than once",
                def.location);
  std::optional<SqlType> serial = serial_type(*def.type_name);
  columns_.push_back({def.colname, serial ? *serial : sql::resolve_type_name(*def.type_name),
                      !def.is_not_null && !serial});
  constraints_.defaults.emplace_back();
  sources_.push_back({nullptr, nullptr, serial.has_value(), def.location});
  origins_.push_back(std::nullopt);
  for (size_t i = 0; i < def.n_constraints; ++i)
    add_column_constraint(*def.constraints[i]->constraint, columns_.size() - 1);
}

void TableDefinition::add_column_constraint(const PgQuery__Constraint& constraint, size_t column) {
  ColumnSource& source = sources_[column];
  const std::string where =
      " for column \"" + columns_[column].name + "\" of table \"" + name_ + "\"";
  switch (constraint.contype) {
    case PG_QUERY__CONSTR_TYPE__CONSTR_NULL:
      break;
    case PG_QUERY__CONSTR_TYPE__CONSTR_NOTNULL:
      columns_[column].nullable = false;
      break;
    case PG_QUERY__CONSTR_TYPE__CONSTR_PRIMARY:
    case PG_QUERY__CONSTR_TYPE__CONSTR_UNIQUE:
      add_key(constraint, {column});
      break;
    case PG_QUERY__CONSTR_TYPE__CONSTR_DEFAULT:
      if (source.default_expression || source.serial)
        throw Error("multiple default values specified" + where, constraint.location);
      if (source.identity)
        throw Error("both default and identity specified" + where, constraint.location);
      source.default_expression = constraint.raw_expr;
      break;
    case PG_QUERY__CONSTR_TYPE__CONSTR_IDENTITY:
      if (source.identity)
        throw Error("multiple identity specifications" + where, constraint.location);
      if (source.default_expression || source.serial)
        throw Error("both default and identity specified" + where, constraint.location);
      if (!columns_[column].type.is_integer())
        throw Error("identity column type must be smallint, integer, or bigint",
                    constraint.location);
      source.identity = &constraint;
      columns_[column].nullable = false;
      break;
    default:
      add_check_or_foreign_key(constraint, {column});
  }
}

void TableDefinition::add_check_or_foreign_key(const PgQuery__Constraint& constraint,
                                               std::vector<size_t> columns) {
  switch (constraint.contype) {
    case PG_QUERY__CONSTR_TYPE__CONSTR_CHECK:
      if (constraint.is_no_inherit) throw NotSupported("NO INHERIT", constraint.location);
      checks_.push_back({constraint.conname, constraint.raw_expr});
      break;
    case PG_QUERY__CONSTR_TYPE__CONSTR_FOREIGN:
      foreign_keys_.push_back({&constraint, std::move(columns)});
      break;
    default:
      unsupported_constraint(constraint);
  }
}

std::vector<size_t> TableDefinition::column_list(PgQuery__Node* const* names, size_t count,
                                                 int location, const char* missing) const {
  std::vector<size_t> columns;
  for (size_t i = 0; i < count; ++i) {
    std::string_view name = sql::node_string(names[i]);
    auto index = find(name);
    if (!index) throw Error("column \"" + std::string(name) + "\" " + missing, location);
    columns.push_back(*index);
  }
  return columns;
}

void TableDefinition::add_table_constraint(const PgQuery__Constraint& constraint) {
  switch (constraint.contype) {
    case PG_QUERY__CONSTR_TYPE__CONSTR_PRIMARY:
    case PG_QUERY__CONSTR_TYPE__CONSTR_UNIQUE: {
      const bool primary = constraint.contype == PG_QUERY__CONSTR_TYPE__CONSTR_PRIMARY;
      std::vector<size_t> key = column_list(constraint.keys, constraint.n_keys, constraint.location,
                                            "named in key does not exist");
      for (size_t i = 0; i < key.size(); ++i)
        if (std::find(key.begin(), key.begin() + i, key[i]) != key.begin() + i)
          throw Error("column \"" + columns_[key[i]].name + "\" appears twice in " +
                          (primary ? "primary key" : "unique") + " constraint",
                      constraint.location);
      add_key(constraint, std::move(key));
      break;
    }
    default:
      add_check_or_foreign_key(
          constraint, column_list(constraint.fk_attrs, constraint.n_fk_attrs, constraint.location,
                                  "referenced in foreign key constraint does not exist"));
  }
}

void TableDefinition::add_key(const PgQuery__Constraint& constraint, std::vector<size_t> columns) {
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

std::string TableDefinition::choose_name(const std::string& base, const std::string& suffix) const {
  for (int number = 0;; ++number) {
    std::string name = base + "_" + suffix + (number ? std::to_string(number) : "");
    bool taken = false;
    for (const KeyConstraint& key : keys_) taken = taken || key.name == name;
    for (const CheckConstraint& check : constraints_.checks) taken = taken || check.name == name;
    for (const PendingCheck& check : checks_) taken = taken || check.name == name;
    for (const ForeignKey& key : constraints_.foreign_keys) taken = taken || key.name == name;
    if (!taken) return name;
  }
}

// PostgreSQL's names: t_pkey, t_a_b_key.
std::string TableDefinition::key_name(const KeyConstraint& key) const {
  if (key.primary) return choose_name(name_, "pkey");
  std::string columns;
  for (size_t column : key.columns) columns += (columns.empty() ? "" : "_") + columns_[column].name;
  return choose_name(name_ + "_" + columns, "key");
}

ForeignKey TableDefinition::resolve_foreign_key(const PendingForeignKey& pending,
                                                const Table* self) const {
  const PgQuery__Constraint& constraint = *pending.constraint;
  const int location = constraint.location;
  if (constraint.deferrable) throw NotSupported("DEFERRABLE constraints", location);
  if (constraint.n_fk_del_set_cols) throw NotSupported("ON DELETE SET NULL (columns)", location);
  const std::string_view match = constraint.fk_matchtype;
  if (!match.empty() && match != "s") throw NotSupported("MATCH FULL / MATCH PARTIAL", location);
  // The referenced table's columns and keys: this definition's own when it references itself.
  const std::string referenced_name = constraint.pktable->relname;
  const std::vector<ColumnDef>* columns = &columns_;
  std::vector<KeyConstraint> keys = keys_;
  const Table* referenced = self;
  if (referenced_name != name_) {
    referenced = catalog_.find_table(referenced_name);
    if (!referenced) {
      if (catalog_.find_view(referenced_name) || catalog_.find_sequence(referenced_name))
        throw Error("referenced relation \"" + referenced_name + "\" is not a table", location);
      throw Error("relation \"" + referenced_name + "\" does not exist",
                  constraint.pktable->location);
    }
    columns = &referenced->columns();
    keys.clear();
    for (const auto& index : referenced->unique_indexes()) keys.push_back(index->constraint());
  }
  // Only a unique key can be referenced (a CREATE INDEX without UNIQUE is no key).
  std::erase_if(keys, [](const KeyConstraint& key) { return !key.unique; });
  std::vector<size_t> wanted;
  if (constraint.n_pk_attrs == 0) {
    for (const KeyConstraint& key : keys)
      if (key.primary) wanted = key.columns;
    if (wanted.empty())
      throw Error("there is no primary key for referenced table \"" + referenced_name + "\"",
                  location);
  } else {
    for (size_t i = 0; i < constraint.n_pk_attrs; ++i) {
      std::string_view name = sql::node_string(constraint.pk_attrs[i]);
      size_t found = columns->size();
      for (size_t c = 0; c < columns->size(); ++c)
        if ((*columns)[c].name == name) found = c;
      if (found == columns->size())
        throw Error("column \"" + std::string(name) +
                        "\" referenced in foreign key constraint does not exist",
                    location);
      wanted.push_back(found);
    }
  }
  if (wanted.size() != pending.columns.size())
    throw Error("number of referencing and referenced columns for foreign key disagree", location);
  std::string name = constraint.conname;
  if (name.empty()) {
    std::string joined;
    for (size_t column : pending.columns)
      joined += (joined.empty() ? "" : "_") + columns_[column].name;
    name = choose_name(name_ + "_" + joined, "fkey");
  }
  std::vector<size_t> sorted = wanted;
  std::sort(sorted.begin(), sorted.end());
  bool indexed = false;
  for (const KeyConstraint& key : keys) {
    std::vector<size_t> have = key.columns;
    std::sort(have.begin(), have.end());
    indexed =
        indexed || (have == sorted && std::adjacent_find(have.begin(), have.end()) == have.end());
  }
  if (!indexed)
    throw Error("there is no unique constraint matching given keys for referenced table \"" +
                    referenced_name + "\"",
                location);
  for (size_t i = 0; i < wanted.size(); ++i) {
    const ColumnDef& mine = columns_[pending.columns[i]];
    const ColumnDef& theirs = (*columns)[wanted[i]];
    if (!sql::common_type(mine.type, theirs.type))
      throw Error("foreign key constraint \"" + name + "\" cannot be implemented\nDETAIL:  Key " +
                      "columns \"" + mine.name + "\" and \"" + theirs.name +
                      "\" are of incompatible types: " + mine.type.to_string() + " and " +
                      theirs.type.to_string() + ".",
                  location);
  }
  return {name,
          pending.columns,
          referenced,
          wanted,
          foreign_key_action(constraint.fk_del_action, location),
          foreign_key_action(constraint.fk_upd_action, location)};
}

TableDefinition::Result TableDefinition::finish(const Table* self) {
  std::vector<std::optional<SequenceOptions>> sequences(columns_.size());
  for (size_t c = 0; c < columns_.size(); ++c) {
    if (const PgQuery__Constraint* identity = sources_[c].identity)
      sequences[c] = sequence_options(identity->options, identity->n_options, columns_[c].type);
    else if (sources_[c].serial)
      sequences[c] = sequence_options(nullptr, 0, columns_[c].type);
  }
  for (KeyConstraint& key : keys_)
    if (key.name.empty()) key.name = key_name(key);
  for (size_t c = 0; c < columns_.size(); ++c) {
    if (!sources_[c].default_expression) continue;
    bind_default(sources_[c].default_expression, columns_, c, catalog_);
    constraints_.defaults[c].expression = sql::expression_text(sources_[c].default_expression);
  }
  for (PendingCheck& pending : checks_) {
    plan::ColumnRegistry registry;
    plan::ExprPtr check = bind_check(pending.expression, name_, columns_, catalog_, registry);
    if (pending.name.empty()) {
      // "t_a_check" when the check reads one column, else "t_check" (PostgreSQL's rule).
      std::set<plan::ColumnId> read;
      collect_column_ids(*check, read);
      pending.name = read.size() == 1
                         ? choose_name(name_ + "_" + columns_[*read.begin()].name, "check")
                         : choose_name(name_, "check");
    }
    constraints_.checks.push_back({pending.name, sql::expression_text(pending.expression)});
  }
  checks_.clear();
  for (const PendingForeignKey& pending : foreign_keys_)
    constraints_.foreign_keys.push_back(resolve_foreign_key(pending, self));
  foreign_keys_.clear();
  // Last, once nothing can fail: the sequences of serial and identity columns.
  for (size_t c = 0; c < columns_.size(); ++c) {
    if (!sequences[c]) continue;
    const PgQuery__Constraint* identity = sources_[c].identity;
    Sequence& sequence = create_owned_sequence(catalog_, name_, columns_[c].name, *sequences[c]);
    created_sequences_.push_back(sequence.name());
    ColumnDefault& column = constraints_.defaults[c];
    column.expression = "nextval(" + string_literal(quote_identifier(sequence.name())) + ")";
    column.owned_sequence = sequence.name();
    if (identity)
      column.identity = std::string_view(identity->generated_when) == "a"
                            ? IdentityKind::kAlways
                            : IdentityKind::kByDefault;
  }
  sources_.assign(columns_.size(), {});
  return {columns_, keys_, constraints_};
}

void TableDefinition::drop_column(size_t column) {
  const std::string& name = columns_[column].name;
  // Foreign keys of this table on the column go with it; one that references it does not.
  auto uses = [&](const std::vector<size_t>& columns) {
    return std::find(columns.begin(), columns.end(), column) != columns.end();
  };
  std::erase_if(constraints_.foreign_keys,
                [&](const ForeignKey& key) { return uses(key.columns); });
  std::erase_if(foreign_keys_, [&](const PendingForeignKey& key) { return uses(key.columns); });
  existing_foreign_keys_ = std::min(existing_foreign_keys_, constraints_.foreign_keys.size());
  // What references the column: a foreign key of this table on itself, or of another table
  // (whose referenced columns count the existing table's columns).
  const Table* self = catalog_.find_table(name_);
  std::vector<std::pair<std::string, std::string>> dependents;  // constraint, its table
  for (const ForeignKey& key : constraints_.foreign_keys)
    if (key.referenced == self && uses(key.referenced_columns))
      dependents.emplace_back(key.name, name_);
  if (self && origins_[column])
    for (auto [table, key] : catalog_.references_to(*self))
      if (table != self && std::find(key->referenced_columns.begin(), key->referenced_columns.end(),
                                     *origins_[column]) != key->referenced_columns.end())
        dependents.emplace_back(key->name, table->name());
  if (!dependents.empty())
    throw Error("cannot drop column " + name + " of table " + name_ +
                " because other objects depend on it\nDETAIL:  constraint " +
                dependents.front().first + " on table " + dependents.front().second +
                " depends on column " + name + " of table " + name_ +
                "\nHINT:  Use DROP ... CASCADE to drop the dependent objects too.");
  std::erase_if(keys_, [&](const KeyConstraint& key) { return uses(key.columns); });
  // CHECK constraints that read the column go with it.
  auto reads = [&](const sql::Node* expression) {
    plan::ColumnRegistry registry;
    std::set<plan::ColumnId> read;
    collect_column_ids(*bind_check(expression, name_, columns_, catalog_, registry), read);
    return read.count(static_cast<plan::ColumnId>(column)) > 0;
  };
  const size_t checks_before = constraints_.checks.size();
  std::erase_if(constraints_.checks, [&](const CheckConstraint& check) {
    return reads(sql::ParsedExpression(check.expression).node());
  });
  existing_checks_ -= std::min(existing_checks_, checks_before - constraints_.checks.size());
  std::erase_if(checks_, [&](const PendingCheck& check) { return reads(check.expression); });
  if (!constraints_.defaults[column].owned_sequence.empty() && origins_[column])
    dropped_sequences_.push_back(constraints_.defaults[column].owned_sequence);
  // Columns after it move up one.
  auto shift = [&](std::vector<size_t>& columns) {
    for (size_t& c : columns) c -= c > column ? 1 : 0;
  };
  for (KeyConstraint& key : keys_) shift(key.columns);
  for (ForeignKey& key : constraints_.foreign_keys) {
    shift(key.columns);
    if (key.referenced == self) shift(key.referenced_columns);
  }
  for (PendingForeignKey& key : foreign_keys_) shift(key.columns);
  columns_.erase(columns_.begin() + static_cast<ptrdiff_t>(column));
  constraints_.defaults.erase(constraints_.defaults.begin() + static_cast<ptrdiff_t>(column));
  sources_.erase(sources_.begin() + static_cast<ptrdiff_t>(column));
  origins_.erase(origins_.begin() + static_cast<ptrdiff_t>(column));
}

void TableDefinition::set_default(size_t column, const sql::Node* expression, int location) {
  const std::string& name = columns_[column].name;
  if (constraints_.defaults[column].identity != IdentityKind::kNone || sources_[column].identity)
    throw Error("column \"" + name + "\" of relation \"" + name_ + "\" is an identity column" +
                    "\nHINT:  Use ALTER TABLE ... ALTER COLUMN ... DROP IDENTITY instead.",
                location);
  sources_[column].default_expression = expression;
  if (!expression) constraints_.defaults[column].expression.clear();
}

void TableDefinition::set_not_null(size_t column, bool not_null, int location) {
  const std::string& name = columns_[column].name;
  if (!not_null) {
    for (const KeyConstraint& key : keys_)
      if (key.primary &&
          std::find(key.columns.begin(), key.columns.end(), column) != key.columns.end())
        throw Error("column \"" + name + "\" is in a primary key", location);
    if (constraints_.defaults[column].identity != IdentityKind::kNone || sources_[column].identity)
      throw Error("column \"" + name + "\" of relation \"" + name_ + "\" is an identity column",
                  location);
  }
  columns_[column].nullable = !not_null;
}

Table& TableDefinition::create() {
  Result result = finish(nullptr);
  Table& table = catalog_.create_table(name_, std::move(result.columns), std::move(result.keys));
  for (ForeignKey& key : result.constraints.foreign_keys)
    if (!key.referenced) key.referenced = &table;
  table.constraints() = std::move(result.constraints);
  return table;
}

}  // namespace floe
