// Foreign keys (storage/table_constraints.h): the referenced side. Inserts into the
// referencing table look their key up in the referenced table's unique index
// (engine/api/row_constraints.h); DELETE and UPDATE of referenced rows call
// referential_actions to learn what their change does to the referencing rows.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "storage/row_versions.h"
#include "storage/table_constraints.h"
#include "storage/value.h"

namespace floe {

class Catalog;
class UniqueIndex;

// The index a foreign key's lookups go through.
const UniqueIndex& referenced_index(const ForeignKey& key);
// The index key of a referencing row's key values (one per ForeignKey::columns, none NULL),
// or nullopt when a value cannot be one of the referenced column's type (out of its range),
// so that no referenced row can have it.
std::optional<std::string> referenced_key(const ForeignKey& key, const UniqueIndex& index,
                                          const std::vector<Value>& values);

// The rows of one referencing table whose key is among the changed referenced rows, and what
// is to be done to them (CASCADE: delete them, or update them to the new key; SET NULL /
// SET DEFAULT: set their key columns).
struct ReferentialAction {
  Table* table;
  const ForeignKey* key;
  ForeignKeyAction action;
  std::vector<uint64_t> rows;
  std::vector<uint64_t> referenced_rows;  // per row: the changed referenced row it refers to
};

// Called by DELETE (`update` false) and by an UPDATE of key columns (`update` true) with the
// row ids of `referenced` about to be deleted or changed, before it changes them. Throws
// PostgreSQL's "update or delete on table ... violates foreign key constraint ..." error when
// a NO ACTION or RESTRICT foreign key has a referencing row; otherwise returns one entry per
// foreign key with other actions that has referencing rows, for the caller to apply in the
// same statement (a cascaded delete calls this again for the rows it deletes). It reads every
// row of the referencing tables that exists for `snapshot` or in the newest state: a row that
// another running transaction deleted still counts (that one may roll back), one that the
// snapshot's own transaction deleted does not.
std::vector<ReferentialAction> referential_actions(const Catalog& catalog, const Table& referenced,
                                                   const std::vector<uint64_t>& rows, bool update,
                                                   const Snapshot& snapshot = {});
// The same for one foreign key of `table` (an UPDATE passes each key the rows whose
// referenced columns it changes).
ReferentialAction referential_action(Table& table, const ForeignKey& key,
                                     const std::vector<uint64_t>& rows, bool update,
                                     const Snapshot& snapshot);

}  // namespace floe
