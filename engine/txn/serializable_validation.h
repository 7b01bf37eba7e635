// Commit-time validation of a serializable transaction (Neumann, Mühlbauer & Kemper, SIGMOD
// 2015, §3): the transaction read a snapshot as of its start; it may commit as of now only if
// no transaction that committed in between changed what it read. Precision locking: for every
// change in the committed transactions' undo buffers, the row's version before the change and
// after it (the version chain still holds both: nothing a running transaction may need is
// collected) is checked against the predicates the transaction logged. A read-only
// transaction needs no validation: it is serialized at its start.
#pragma once

#include "engine/txn/transaction.h"

namespace floe {

// Whether a change of `committed` (already published) produced or removed a row version that
// satisfies a predicate `reads` logged: a read/write dependency that breaks serializability.
bool reads_changes_of(const PredicateLog& reads, const Transaction& committed);

}  // namespace floe
