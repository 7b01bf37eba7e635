// The engine objects behind the public API's classes (engine/api/floe.h), for their
// implementation (floe.cpp, floe_record.cpp) only. Programs include floe.h alone.
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

}  // namespace floe::api
