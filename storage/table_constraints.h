// The constraints of a table beyond NOT NULL, PRIMARY KEY and UNIQUE: column defaults,
// identity columns, CHECK constraints and foreign keys. storage/ knows no SQL, so defaults
// and checks are kept as the SQL text of their expressions (as views are) and bound by the
// engine when a statement needs them (engine/api/row_constraints.h).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace floe {

class Table;

enum class IdentityKind : uint8_t { kNone, kAlways, kByDefault };

struct ColumnDefault {
  std::string expression;  // SQL text; empty: no default (NULL)
  IdentityKind identity = IdentityKind::kNone;
  // The sequence this column owns (serial, identity): dropped with the column or table.
  std::string owned_sequence;
};

struct CheckConstraint {
  std::string name;        // PostgreSQL's t_a_check / t_check when unnamed
  std::string expression;  // SQL text
};

// ON DELETE / ON UPDATE of a foreign key.
enum class ForeignKeyAction : uint8_t { kNoAction, kRestrict, kCascade, kSetNull, kSetDefault };

struct ForeignKey {
  std::string name;             // PostgreSQL's t_a_fkey when unnamed
  std::vector<size_t> columns;  // of the referencing table, as declared
  const Table* referenced = nullptr;
  // columns[i] refers to referenced_columns[i]; together these are the columns of a PRIMARY
  // KEY or UNIQUE index of the referenced table (in any order).
  std::vector<size_t> referenced_columns;
  ForeignKeyAction on_delete = ForeignKeyAction::kNoAction;
  ForeignKeyAction on_update = ForeignKeyAction::kNoAction;
};

struct TableConstraints {
  std::vector<ColumnDefault> defaults;  // one per column
  std::vector<CheckConstraint> checks;
  std::vector<ForeignKey> foreign_keys;
};

}  // namespace floe
