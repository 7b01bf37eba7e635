// The engine objects behind the public API's (engine/api/floe.h), for the one part of floe's
// programs that still needs them: floe-tpcc's record-level session, which stays on
// engine/api/record_transaction.h until the record path joins the public header (issue 10's
// next step). Programs include floe.h only.
#pragma once

#include <string>

#include "engine/api/database.h"
#include "engine/api/floe.h"

namespace floe::api {

struct Database::Impl {
  explicit Impl(const std::string& path) : database(path) {}
  floe::Database database;
};

struct EngineAccess {
  static floe::Database& database(Database& database) { return database.impl_->database; }
};

}  // namespace floe::api
