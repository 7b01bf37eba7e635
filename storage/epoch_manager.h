// Epoch-based reclamation: memory that a concurrent reader may still hold (column arrays an
// append replaced, undo buffers and ChunkVersions that garbage collection cut from the
// version chains) is retired instead of freed, and freed once no reader that could have seen
// it is still running (Fraser, "Practical lock-freedom", 2004, §5.2.3; the epoch scheme of
// Neumann, Mühlbauer & Kemper, SIGMOD 2015, §3.1's garbage collection).
//
// A reader (a statement) pins the global epoch it starts in for its whole run. Retiring
// tags the object with the current epoch and advances the epoch, so every later pin is newer.
// An object retired in epoch r was unlinked before any reader pinned an epoch > r could look
// for it: it is freed once every pinned epoch is > r, at once when nothing is pinned.
#pragma once

#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <vector>

namespace floe {

class EpochManager {
 public:
  // Keeps the epoch it was made in pinned until destroyed (or moved from).
  class Pin {
   public:
    Pin() = default;
    Pin(Pin&& other) noexcept : manager_(other.manager_), epoch_(other.epoch_) {
      other.manager_ = nullptr;
    }
    Pin& operator=(Pin&& other) noexcept;
    ~Pin();
    uint64_t epoch() const { return epoch_; }

   private:
    friend class EpochManager;
    Pin(EpochManager* manager, uint64_t epoch) : manager_(manager), epoch_(epoch) {}
    EpochManager* manager_ = nullptr;
    uint64_t epoch_ = 0;
  };

  EpochManager() = default;
  // Frees everything still retired: nobody may read any more.
  ~EpochManager();
  EpochManager(const EpochManager&) = delete;
  EpochManager& operator=(const EpochManager&) = delete;

  Pin pin();
  // Hands over an object that readers may still hold: `free` runs once no pin is as old as
  // now (at once when nothing is pinned). Thread-safe.
  void retire(std::function<void()> free);
  // Retires an owned object (a unique_ptr, a container).
  template <typename T>
  void retire_object(T owned) {
    retire([object = std::make_shared<T>(std::move(owned))]() mutable { object.reset(); });
  }

  uint64_t current_epoch() const;
  // Objects retired and not yet freed (for tests).
  size_t retired_count() const;

 private:
  struct Retired {
    uint64_t epoch;
    std::function<void()> free;
  };
  void unpin(uint64_t epoch);
  // Under mutex_: takes out what no pin can hold any more; the caller frees it unlocked.
  std::vector<Retired> take_reclaimable();

  mutable std::mutex mutex_;
  uint64_t epoch_ = 1;
  std::map<uint64_t, uint32_t> pinned_;  // epoch -> pins
  std::vector<Retired> retired_;         // in epoch order
};

// The process's epoch manager: storage and transactions of every Database retire into it,
// and every statement pins it.
EpochManager& epochs();

}  // namespace floe
