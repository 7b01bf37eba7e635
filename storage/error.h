// The one exception type floe throws for user-facing errors.
#pragma once

#include <stdexcept>
#include <string>

namespace floe {

class Error : public std::runtime_error {
 public:
  // position: 0-based byte offset into the SQL statement, or -1 when unknown.
  explicit Error(const std::string& message, int position = -1)
      : std::runtime_error(message), position_(position) {}
  int position() const { return position_; }

 private:
  int position_;
};

// For constructs the engine does not implement: always "not supported: <what>".
class NotSupported : public Error {
 public:
  explicit NotSupported(const std::string& what, int position = -1)
      : Error("not supported: " + what, position) {}
};

// A write-write conflict between transactions, or a serializable transaction's failed
// validation (engine/txn/): the transaction is aborted and may be retried. PostgreSQL's
// messages and SQLSTATE class 40 (transaction rollback).
class SerializationFailure : public Error {
 public:
  static constexpr const char* kConcurrentUpdate =
      "could not serialize access due to concurrent update";
  static constexpr const char* kReadWriteDependencies =
      "could not serialize access due to read/write dependencies among transactions";
  explicit SerializationFailure(const char* message = kConcurrentUpdate) : Error(message) {}
  static constexpr const char* kSqlState = "40001";
};

}  // namespace floe
