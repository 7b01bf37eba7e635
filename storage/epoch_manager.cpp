#include "storage/epoch_manager.h"

#include <algorithm>

namespace floe {

EpochManager::Pin& EpochManager::Pin::operator=(Pin&& other) noexcept {
  if (this != &other) {
    if (manager_) manager_->unpin(epoch_);
    manager_ = other.manager_;
    epoch_ = other.epoch_;
    other.manager_ = nullptr;
  }
  return *this;
}

EpochManager::Pin::~Pin() {
  if (manager_) manager_->unpin(epoch_);
}

EpochManager::~EpochManager() {
  for (Retired& retired : retired_) retired.free();
}

EpochManager::Pin EpochManager::pin() {
  std::lock_guard lock(mutex_);
  ++pinned_[epoch_];
  return Pin(this, epoch_);
}

void EpochManager::unpin(uint64_t epoch) {
  std::vector<Retired> reclaimable;
  {
    std::lock_guard lock(mutex_);
    auto pins = pinned_.find(epoch);
    if (--pins->second == 0) pinned_.erase(pins);
    reclaimable = take_reclaimable();
  }
  for (Retired& retired : reclaimable) retired.free();
}

void EpochManager::retire(std::function<void()> free) {
  {
    std::lock_guard lock(mutex_);
    if (!pinned_.empty()) {
      retired_.push_back({epoch_++, std::move(free)});
      return;
    }
  }
  free();  // no reader runs: nobody can hold it
}

std::vector<EpochManager::Retired> EpochManager::take_reclaimable() {
  const uint64_t oldest = pinned_.empty() ? UINT64_MAX : pinned_.begin()->first;
  auto end = std::find_if(retired_.begin(), retired_.end(),
                          [&](const Retired& retired) { return retired.epoch >= oldest; });
  std::vector<Retired> reclaimable(std::make_move_iterator(retired_.begin()),
                                   std::make_move_iterator(end));
  retired_.erase(retired_.begin(), end);
  return reclaimable;
}

uint64_t EpochManager::current_epoch() const {
  std::lock_guard lock(mutex_);
  return epoch_;
}

size_t EpochManager::retired_count() const {
  std::lock_guard lock(mutex_);
  return retired_.size();
}

EpochManager& epochs() {
  static EpochManager manager;
  return manager;
}

}  // namespace floe
