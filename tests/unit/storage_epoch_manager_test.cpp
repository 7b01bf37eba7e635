// Epoch-based reclamation (storage/epoch_manager.h): a retired object lives while a pin as old
// as its retirement does, and no longer.
#include "storage/epoch_manager.h"

#include <gtest/gtest.h>

#include <atomic>
#include <memory>
#include <optional>
#include <thread>
#include <vector>

namespace floe {
namespace {

TEST(EpochManagerTest, FreesAtOnceWhenNothingIsPinned) {
  EpochManager manager;
  int freed = 0;
  manager.retire([&] { ++freed; });
  EXPECT_EQ(freed, 1);
  EXPECT_EQ(manager.retired_count(), 0u);
}

TEST(EpochManagerTest, KeepsWhatAPinnedReaderMayHoldUntilItUnpins) {
  EpochManager manager;
  int freed = 0;
  {
    EpochManager::Pin reader = manager.pin();
    manager.retire([&] { ++freed; });
    EXPECT_EQ(freed, 0);
    EXPECT_EQ(manager.retired_count(), 1u);
  }
  EXPECT_EQ(freed, 1);
  EXPECT_EQ(manager.retired_count(), 0u);
}

TEST(EpochManagerTest, AReaderPinnedAfterTheRetirementDoesNotHoldIt) {
  EpochManager manager;
  int first = 0, second = 0;
  std::optional<EpochManager::Pin> old_reader = manager.pin();
  manager.retire([&] { ++first; });  // the old reader may hold it
  EpochManager::Pin new_reader = manager.pin();
  EXPECT_GT(new_reader.epoch(), old_reader->epoch());
  manager.retire([&] { ++second; });  // both may hold it
  old_reader.reset();
  EXPECT_EQ(first, 1);  // the new reader started after it was unlinked
  EXPECT_EQ(second, 0);
  EXPECT_EQ(manager.retired_count(), 1u);
}

TEST(EpochManagerTest, MovedPinUnpinsOnce) {
  EpochManager manager;
  int freed = 0;
  EpochManager::Pin moved;
  {
    EpochManager::Pin reader = manager.pin();
    moved = std::move(reader);
  }
  manager.retire([&] { ++freed; });
  EXPECT_EQ(freed, 0);
  moved = EpochManager::Pin();
  EXPECT_EQ(freed, 1);
}

TEST(EpochManagerTest, RetiresOwnedObjects) {
  EpochManager manager;
  auto tracked = std::make_shared<int>(7);
  std::weak_ptr<int> watch = tracked;
  {
    EpochManager::Pin reader = manager.pin();
    manager.retire_object(std::move(tracked));
    EXPECT_FALSE(watch.expired());
  }
  EXPECT_TRUE(watch.expired());
}

// Readers pin, check that the object they read is alive, and unpin, while a writer keeps
// replacing and retiring it: no reader ever sees a freed object.
TEST(EpochManagerTest, ConcurrentReadersNeverSeeAFreedObject) {
  struct Object {
    std::atomic<bool> alive{true};
  };
  EpochManager manager;
  std::atomic<Object*> current{new Object};
  std::atomic<bool> done{false};
  std::atomic<int> dead_reads{0};
  std::vector<std::unique_ptr<Object>> graveyard;  // freed only at the end
  std::vector<std::thread> readers;
  for (int r = 0; r < 3; ++r) {
    readers.emplace_back([&] {
      while (!done.load()) {
        EpochManager::Pin pin = manager.pin();
        Object* object = current.load(std::memory_order_acquire);
        for (int i = 0; i < 50; ++i)
          if (!object->alive.load(std::memory_order_relaxed)) ++dead_reads;
      }
    });
  }
  for (int w = 0; w < 5000; ++w) {
    Object* old = current.exchange(new Object, std::memory_order_acq_rel);
    graveyard.emplace_back(old);
    // Marked dead, not deleted, so that a wrong early free is observable instead of a crash.
    manager.retire([old] { old->alive.store(false, std::memory_order_relaxed); });
  }
  done.store(true);
  for (auto& reader : readers) reader.join();
  EXPECT_EQ(dead_reads.load(), 0);
  EXPECT_EQ(manager.retired_count(), 0u);
  delete current.load();
}

}  // namespace
}  // namespace floe
