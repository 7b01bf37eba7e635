// A sequence (CREATE SEQUENCE, serial and identity columns): a counter handed out by nextval.
// As in PostgreSQL, sequence values are not transactional: a value once handed out is never
// handed out again, whatever happens to the statement that took it. Thread-safe, since
// INSERT ... SELECT calls nextval from several workers.
#pragma once

#include <cstdint>
#include <mutex>
#include <string>

namespace floe {

struct SequenceOptions {
  int64_t increment = 1;
  int64_t min_value = 1;
  int64_t max_value = INT64_MAX;
  int64_t start = 1;
  bool cycle = false;
};

class Sequence {
 public:
  Sequence(std::string name, SequenceOptions options);

  const std::string& name() const { return name_; }
  void rename(std::string name) { name_ = std::move(name); }
  const SequenceOptions& options() const { return options_; }
  // Unique in the process: a session's currval belongs to this sequence, not to a later one
  // of the same name.
  uint64_t id() const { return id_; }

  // The next value, or PostgreSQL's "nextval: reached maximum value of sequence" error.
  int64_t next();
  // setval: the next nextval returns value + increment (`is_called`) or value itself. Throws
  // PostgreSQL's "out of bounds" error.
  void set(int64_t value, bool is_called);

 private:
  std::string name_;
  SequenceOptions options_;
  uint64_t id_;
  std::mutex mutex_;
  int64_t last_;
  bool is_called_ = false;
};

}  // namespace floe
