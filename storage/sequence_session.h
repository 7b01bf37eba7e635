// A session's view of the sequences (nextval, currval, setval, lastval): the catalog to find
// them by name in, and what currval and lastval remember, per session as in PostgreSQL. A
// Connection owns one and makes it current on its thread while a statement runs; a
// QueryContext created then takes it along to the workers (runtime/query_context.h), so
// generated code and constant evaluation call the same functions.
#pragma once

#include <cstdint>
#include <mutex>
#include <optional>
#include <string_view>
#include <unordered_map>

namespace floe {

class Catalog;
class Sequence;

class SequenceSession {
 public:
  explicit SequenceSession(const Catalog& catalog) : catalog_(catalog) {}

  // `name` as in nextval('name'): folded to lower case unless double-quoted.
  int64_t nextval(std::string_view name);
  int64_t currval(std::string_view name);
  int64_t setval(std::string_view name, int64_t value, bool is_called);
  int64_t lastval();

  // The session of the statement running on this thread, or nullptr.
  static SequenceSession* current();
  // Makes `session` current on this thread for its lifetime.
  class Scope {
   public:
    explicit Scope(SequenceSession& session);
    ~Scope();
    Scope(const Scope&) = delete;
    Scope& operator=(const Scope&) = delete;

   private:
    SequenceSession* previous_;
  };

 private:
  Sequence& find(std::string_view name) const;

  const Catalog& catalog_;
  std::mutex mutex_;                                   // workers of one query call nextval at once
  std::unordered_map<uint64_t, int64_t> last_values_;  // by Sequence::id
  std::optional<uint64_t> last_used_;                  // lastval's sequence
};

}  // namespace floe
