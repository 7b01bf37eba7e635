// When full hot chunks freeze into Data Blocks (DESIGN.md "Hot chunks and Data Blocks";
// SET freeze_policy, docs/sql.md):
//   auto   bulk loads freeze the full chunks they wrote, and a background thread freezes full
//          chunks that nobody wrote for `delay_seconds` (the default);
//   bulk   only bulk loads freeze;
//   never  only VACUUM FREEZE and CALL freeze() do.
// The background thread freezes only between statements: it takes the database's statement
// mutex, which every statement holds while it runs.
#pragma once

#include <atomic>
#include <condition_variable>
#include <cstdint>
#include <mutex>
#include <shared_mutex>
#include <thread>

#include "storage/catalog.h"

namespace floe {

enum class FreezePolicy : uint8_t { kAuto, kBulk, kNever };

class ChunkFreezer {
 public:
  static constexpr FreezePolicy kDefaultPolicy = FreezePolicy::kAuto;
  static constexpr uint32_t kDefaultDelaySeconds = 10;

  // Starts the background thread over `catalog`, guarded by `statement_mutex`.
  ChunkFreezer(Catalog& catalog, std::shared_mutex& statement_mutex);
  ~ChunkFreezer();
  ChunkFreezer(const ChunkFreezer&) = delete;
  ChunkFreezer& operator=(const ChunkFreezer&) = delete;

  FreezePolicy policy() const { return policy_; }
  void set_policy(FreezePolicy policy);
  uint32_t delay_seconds() const { return delay_seconds_; }
  void set_delay_seconds(uint32_t seconds);

  // Whether bulk loads (COPY, CALL dbgen, INSERT ... SELECT into an empty table) freeze the
  // full chunks they wrote.
  bool bulk_loads_freeze() const { return policy_ != FreezePolicy::kNever; }

  // One round of the background policy, now: freezes the full chunks that have been
  // untouched for the delay. The caller must hold the statement lock alone. Returns the number
  // of chunks frozen.
  size_t freeze_cold_chunks();

 private:
  void run();

  Catalog& catalog_;
  std::shared_mutex& statement_mutex_;
  std::atomic<FreezePolicy> policy_{kDefaultPolicy};
  std::atomic<uint32_t> delay_seconds_{kDefaultDelaySeconds};
  std::mutex wake_mutex_;
  std::condition_variable wake_;
  bool stopping_ = false;
  std::thread thread_;
};

}  // namespace floe
