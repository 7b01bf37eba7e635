#include "runtime/join_hash_table.h"

#include <tbb/parallel_for.h>

#include "runtime/cancellation.h"

namespace floe {

JoinHashTable::JoinHashTable(uint32_t payload_size, uint32_t worker_count)
    : payload_size_(payload_size), directory_(new std::atomic<uint64_t>[shape_.capacity()]()) {
  workers_.reserve(worker_count);
  for (uint32_t i = 0; i < worker_count; ++i)
    workers_.emplace_back(sizeof(JoinEntry) + payload_size);
}

uint8_t* JoinHashTable::insert(uint32_t worker, uint64_t hash) {
  auto* entry = reinterpret_cast<JoinEntry*>(workers_[worker].allocate());
  entry->hash = hash;
  return entry->payload();
}

void JoinHashTable::finalize(const std::atomic<bool>* cancel) {
  shape_ = HashDirectoryShape::for_entries(size());
  directory_.reset(new std::atomic<uint64_t>[shape_.capacity()]());
  // Each worker's entries are linked by a task of their own: link() is lock-free.
  tbb::parallel_for(size_t{0}, workers_.size(), [this, cancel](size_t worker) {
    CancelPoll poll(cancel);
    workers_[worker].for_each([this, &poll](uint8_t* bytes) {
      poll.tick();
      link(reinterpret_cast<JoinEntry*>(bytes));
    });
  });
}

void JoinHashTable::link(JoinEntry* entry) {
  uint64_t scrambled = HashDirectoryShape::scramble(entry->hash);
  std::atomic<uint64_t>& slot = directory_[shape_.slot(scrambled)];
  uint64_t tag = tag_of(scrambled);
  uint64_t old = slot.load(std::memory_order_relaxed);
  uint64_t desired;
  do {
    entry->next = reinterpret_cast<JoinEntry*>(old & kPointerMask);
    desired = reinterpret_cast<uint64_t>(entry) | (old & ~kPointerMask) | tag;
  } while (!slot.compare_exchange_weak(old, desired, std::memory_order_release,
                                       std::memory_order_relaxed));
}

JoinEntry* JoinHashTable::first_from(uint64_t slot) const {
  for (; slot < slot_count(); ++slot)
    if (JoinEntry* entry = slot_chain(slot)) return entry;
  return nullptr;
}

uint64_t JoinHashTable::size() const {
  uint64_t total = 0;
  for (const EntryArena& arena : workers_) total += arena.size();
  return total;
}

}  // namespace floe
