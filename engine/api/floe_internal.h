// The engine objects behind the public API's (engine/api/floe.h), for the parts of floe's
// programs that still need them: floe-tpcc's record-level session and its cold-data freezer
// (floe_cold_freezer.h), which stay on the engine's headers until the record path and
// freezing join the public header (issue 10's next step). Programs include floe.h only.
#pragma once

#include <string>

#include "engine/api/database.h"
#include "engine/api/floe.h"
#include "engine/api/record_key.h"
#include "engine/api/record_transaction.h"

namespace floe::api {

struct Database::Impl {
  explicit Impl(const std::string& path) : database(path) {}
  floe::Database database;
};

struct Transaction::Impl {
  explicit Impl(floe::Connection& connection) : scope(connection) {}
  floe::TransactionScope scope;
  std::vector<floe::RecordValue> values;  // the lean read's, copied into the caller's
};

struct RecordKey::Impl {
  explicit Impl(const floe::RecordIndex& index) : key(index) {}
  floe::RecordKey key;
};

struct EngineAccess {
  static floe::Database& database(Database& database) { return database.impl_->database; }
};

}  // namespace floe::api
