// PostgreSQL's four isolation levels and how floe runs them: serializable as the paper's
// validated serializability (serializable_validation.h), every other level as snapshot
// isolation (Neumann, Mühlbauer & Kemper, SIGMOD 2015, §2), which is PostgreSQL's
// repeatable read; read committed and read uncommitted get the stronger snapshot isolation
// (a transaction reads one snapshot, taken when it starts). The name set is kept, as
// PostgreSQL keeps read uncommitted.
#pragma once

#include <array>
#include <cstdint>
#include <string_view>

namespace floe {

enum class IsolationLevel : uint8_t {
  kReadUncommitted,
  kReadCommitted,
  kRepeatableRead,
  kSerializable,
};

// floe's default: snapshot isolation.
constexpr IsolationLevel kDefaultIsolation = IsolationLevel::kRepeatableRead;

// PostgreSQL's names, in IsolationLevel's order.
constexpr std::array<const char*, 4> kIsolationLevelNames = {"read uncommitted", "read committed",
                                                             "repeatable read", "serializable"};

inline const char* isolation_level_name(IsolationLevel level) {
  return kIsolationLevelNames[static_cast<size_t>(level)];
}

}  // namespace floe
