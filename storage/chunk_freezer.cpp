#include "storage/chunk_freezer.h"

#include <algorithm>
#include <chrono>

namespace floe {

ChunkFreezer::ChunkFreezer(Catalog& catalog, std::shared_mutex& statement_mutex)
    : catalog_(catalog), statement_mutex_(statement_mutex), thread_([this] { run(); }) {}

ChunkFreezer::~ChunkFreezer() {
  {
    std::lock_guard lock(wake_mutex_);
    stopping_ = true;
  }
  wake_.notify_all();
  thread_.join();
}

void ChunkFreezer::set_policy(FreezePolicy policy) {
  policy_ = policy;
  wake_.notify_all();
}

void ChunkFreezer::set_delay_seconds(uint32_t seconds) {
  delay_seconds_ = seconds;
  wake_.notify_all();
}

size_t ChunkFreezer::freeze_cold_chunks() {
  auto cutoff = std::chrono::steady_clock::now() - std::chrono::seconds(delay_seconds_.load());
  size_t frozen = 0;
  for (const std::string& name : catalog_.table_names()) {
    Table& table = *catalog_.find_table(name);
    std::vector<size_t> cold = table.full_chunks_filled_before(cutoff);
    table.freeze_chunks(cold);
    frozen += cold.size();
  }
  return frozen;
}

void ChunkFreezer::run() {
  std::unique_lock wake_lock(wake_mutex_);
  while (!stopping_) {
    // Checks a few times per delay, at most once a second.
    auto pause = std::chrono::seconds(std::clamp<uint32_t>(delay_seconds_ / 4, 1, 60));
    wake_.wait_for(wake_lock, pause);
    if (stopping_ || policy_ != FreezePolicy::kAuto) continue;
    wake_lock.unlock();
    {
      // Never waits for a statement: a busy database is checked again next round.
      std::unique_lock statements(statement_mutex_, std::try_to_lock);
      if (statements.owns_lock()) freeze_cold_chunks();
    }
    wake_lock.lock();
  }
}

}  // namespace floe
