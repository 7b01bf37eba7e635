// floe through the record-level API (engine/api/record_transaction.h): each of the
// transactions' statements (tpcc_statements.h) becomes index lookups, range scans, reads and
// row changes on the session's TransactionScope, with no SQL per call, so that the five
// transactions (tpcc_transactions.h) run unchanged on it. Ad-hoc SQL (consistency checks)
// still goes through Connection::query.
#pragma once

#include <memory>

#include "bench/tpcc/tpcc_backend.h"

namespace floe::api {
class Database;
}

namespace floe::tpcc {

// A session on `database` through the public API's record-level path (engine/api/floe.h).
std::unique_ptr<Session> make_floe_record_session(api::Database& database);

}  // namespace floe::tpcc
